import { runAndReport } from './report';
import './suites/teamSuite';

/** The extensionTestsPath entry of the team server run (test/vscode/teamHost.test.ts). */
export function run(): Promise<void> {
  return runAndReport();
}
