import { runAndReport } from './report';
import './suites/lifecycleSuite';
import './suites/modelSummarySuite';

/** The extensionTestsPath entry of the lifecycle run (test/vscode/lifecycleHost.test.ts). */
export function run(): Promise<void> {
  return runAndReport();
}
