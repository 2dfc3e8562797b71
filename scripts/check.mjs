// `npm run check`: typecheck, lint and format:check at once, then (when all three pass) the tests.
// The three static checks each keep about one core busy for a while and idle the other (measured
// on 2 cores: tsc 15.7 s of wall for 21.7 s of CPU, eslint 48.9 for 62.9, prettier 17.5 for 24),
// so run side by side they end in about the time of the slowest instead of the sum. Each one's
// output is printed whole when it ends, so the lines of two never interleave.
import { spawn, spawnSync } from 'node:child_process';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const STATIC_CHECKS = ['typecheck', 'lint', 'format:check'];

function runScript(name) {
  return new Promise((resolve) => {
    const child = spawn(npm, ['run', '--silent', name], { cwd: root, shell: process.platform === 'win32' });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    child.on('close', (code) => {
      process.stdout.write(`> npm run ${name}: ${code === 0 ? 'ok' : `failed (exit ${code})`}\n${output}`);
      resolve(code === 0);
    });
  });
}

const passed = await Promise.all(STATIC_CHECKS.map(runScript));
if (passed.includes(false)) process.exit(1);
const tests = spawnSync(npm, ['test'], { cwd: root, stdio: 'inherit', shell: process.platform === 'win32' });
process.exit(tests.status ?? 1);
