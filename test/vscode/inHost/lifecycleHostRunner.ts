import { runAndReport } from './report';
import './suites/lifecycleSuite';

/** The extensionTestsPath entry of the lifecycle run (test/vscode/lifecycleHost.test.ts). */
export function run(): Promise<void> {
  return runAndReport();
}
