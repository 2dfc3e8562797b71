import { runAndReport } from './report';
// Suites register their tests on import, in the order they run.
import './suites/activationSuite';
import './suites/memorySuite';
import './suites/exchangeSuite';
import './suites/scanSuite';
import './suites/editorSuite';
import './suites/chatSuite';
import './suites/driftSuite';
import './suites/timelineSuite';
import './suites/graphSuite';
import './suites/shutdownSuite';

/** The extensionTestsPath entry: runs the suites imported above (see report.ts). */
export function run(): Promise<void> {
  return runAndReport();
}
