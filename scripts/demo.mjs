// The main job on an embedded default: a fresh database in the current folder
// (.engram/demo.db), three memories remembered and one recalled, through the real CLI.
import { spawnSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import path from 'node:path';

const cli = path.join(import.meta.dirname, '..', 'dist', 'cli.js');
const db = path.join(process.cwd(), '.engram', 'demo.db');
for (const suffix of ['', '.journal', '.prev', '.lock']) rmSync(`${db}${suffix}`, { force: true });

function engram(...args) {
  console.log(`$ engram ${args.map((a) => (a.includes(' ') ? JSON.stringify(a) : a)).join(' ')}`);
  const result = spawnSync(process.execPath, [cli, '--db', db, ...args], { encoding: 'utf8' });
  process.stdout.write(result.stdout);
  process.stderr.write(result.stderr);
  if (result.status !== 0) process.exit(result.status ?? 1);
}

engram(
  'remember',
  'We chose sql.js so the memory engine runs anywhere VS Code runs',
  '--kind',
  'decision',
  '--tags',
  'architecture',
);
engram(
  'remember',
  'Run `npm run check` before pushing: it gates types, lint, format and tests',
  '--kind',
  'procedure',
);
engram('remember', 'Caroline owns the release process and tags versions on Fridays', '--layer', 'episodic');
engram('recall', 'who handles releases?');
engram('stats');
console.log(
  `\nThe database is ${path.relative(process.cwd(), db)}; explore it with: node dist/cli.js --db ${path.relative(process.cwd(), db)} --help`,
);
