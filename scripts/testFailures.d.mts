// Types of testFailures.mjs, for the test that imports it (the runner itself is plain JavaScript).
export interface FailedTest {
  name: string;
  fields: Partial<Record<'location' | 'failureType' | 'error' | 'exitCode' | 'stack', string>> &
    Record<string, string>;
}
export function failedTests(tap: string): FailedTest[];
export function failedAsFile(failure: FailedTest): boolean;
export function printedProblems(tap: string): string[];
export function failureReport(tap: string, options?: { maxProblemLines?: number }): string;
