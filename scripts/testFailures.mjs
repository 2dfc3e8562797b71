// What a failed test run says about its failures, read from node's TAP output, for the lines that
// end the run's log: CI keeps only the tail of a long log, and a test file that fails as a whole
// (its process exited non-zero although every test in it passed: an unhandled rejection after the
// tests, a hook, a crash) is reported there as no more than "test failed". Its reason is in lines
// printed much earlier (the file's stderr, node's "generated asynchronous activity" warning).

const NOT_OK = /^(\s*)not ok \d+ - (.*)$/;
const SUMMARY = /^# (tests|suites|pass|fail|cancelled|skipped|todo|duration_ms) /;

/**
 * Each failed test with its YAML fields (`location`, `failureType`, `error`, `exitCode`, `stack`),
 * except suites that failed only because a test in them did.
 * @param {string} tap
 * @returns {Array<{ name: string, fields: Record<string, string> }>}
 */
export function failedTests(tap) {
  const lines = tap.split('\n');
  const failures = [];
  for (let i = 0; i < lines.length; i++) {
    const match = NOT_OK.exec(lines[i]);
    if (!match) continue;
    const indent = `${match[1]}  `;
    const fields = {};
    let key;
    if (lines[i + 1] === `${indent}---`) {
      for (i += 2; i < lines.length && lines[i] !== `${indent}...`; i++) {
        const field = /^\s*([A-Za-z_]+): ?(.*)$/.exec(lines[i]);
        if (field && lines[i].startsWith(indent) && !lines[i].startsWith(`${indent}  `)) {
          key = field[1];
          fields[key] = unquote(field[2]);
        } else if (key) {
          fields[key] = `${fields[key]}\n${lines[i].trim()}`.replace(/^\|-?\n/, '');
        }
      }
    }
    if (fields.failureType === 'subtestsFailed') continue;
    failures.push({ name: match[2], fields });
  }
  return failures;
}

/** A failed test file as a whole: its own process failed, not a test inside it. */
export function failedAsFile(failure) {
  return failure.fields.failureType === 'testCodeFailure' && /:1:1$/.test(failure.fields.location ?? '');
}

/**
 * The lines test processes printed (stdout and stderr become TAP comments) that read as errors or
 * warnings: with files run side by side they cannot be told apart by file, so all are kept.
 * @param {string} tap
 */
export function printedProblems(tap) {
  return tap
    .split('\n')
    .filter((line) => /^\s*# /.test(line) && !/^\s*# Subtest: /.test(line) && !SUMMARY.test(line))
    .map((line) => line.replace(/^\s*# /, ''))
    .filter((line) =>
      /error|warn|fail|lost|refused|killed|unhandled|uncaught|asynchronous activity|ECONN|timed out/i.test(
        line,
      ),
    );
}

/**
 * The report printed before the run's summary line: each failure's error and the top of its stack,
 * then what the processes printed that looks like a cause.
 * @param {string} tap
 * @param {{ maxProblemLines?: number }} [options]
 */
export function failureReport(tap, { maxProblemLines = 40 } = {}) {
  const failures = failedTests(tap);
  if (failures.length === 0) return '';
  const out = ['', `failures (${failures.length}):`];
  for (const failure of failures) {
    const { location, failureType, error, exitCode, stack } = failure.fields;
    out.push(`- ${failure.name}${location ? ` (${location})` : ''}`);
    out.push(`  ${failureType ?? 'failed'}${exitCode ? `, exit code ${exitCode}` : ''}: ${error ?? ''}`);
    for (const line of (stack ?? '').split('\n').filter(Boolean).slice(0, 6)) out.push(`    at ${line}`);
  }
  const problems = printedProblems(tap);
  if (problems.length > 0) {
    out.push(`printed by the test processes, errors and warnings (${problems.length} lines):`);
    const kept = problems.slice(-maxProblemLines);
    if (kept.length < problems.length)
      out.push(`  ... ${problems.length - kept.length} earlier lines left out`);
    for (const line of kept) out.push(`  ${line.slice(0, 400)}`);
  }
  return out.join('\n');
}

function unquote(value) {
  const quoted = /^'(.*)'$/.exec(value);
  return quoted ? quoted[1].replace(/''/g, "'") : value === '~' ? '' : value;
}
