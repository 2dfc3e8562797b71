import { runAndReport } from './report';
import './suites/untrustedSuite';

/** The extensionTestsPath entry of the Restricted Mode run (test/vscode/untrustedHost.test.ts). */
export function run(): Promise<void> {
  return runAndReport();
}
