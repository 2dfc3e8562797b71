import { runAndReport } from './report';
import './suites/captureSuite';

/** The extensionTestsPath entry of the capture run (test/vscode/captureHost.test.ts). */
export function run(): Promise<void> {
  return runAndReport();
}
