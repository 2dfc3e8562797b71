// Measures extractEntities on 4,000 varied 300-character sentences (chat logs, prose, dev notes with
// paths, symbols, commands, dates and URLs), and the slowest of a set of 100 KB pathological inputs.
// Usage: node --import tsx test/extract/entitiesBench.ts
// (or bundled, as the engine ships: npx esbuild test/extract/entitiesBench.ts --bundle --platform=node
//  --outfile=/tmp/bench.cjs && node /tmp/bench.cjs)
import { extractEntities } from '../../engine/extract/entities';
import { redactSecrets } from '../../engine/extract/secrets';

const people = ['Caroline', 'Melanie Smith', 'Jon', 'Dr. Alvarez', 'Priya', "Anna's", 'John Doe', 'Zoë'];
const files = [
  'src/auth/login.ts:42',
  './x.js',
  '../a/b.py',
  '/home/me/app/main.go',
  'C:\\proj\\Program.cs',
  'package.json',
  'engine/store/sqlite.ts#L10',
];
const symbols = [
  'getUserName()',
  'UserService.findById',
  'Foo::bar',
  '`useState`',
  'parse_config',
  'HttpClient',
  'MAX_RETRIES',
];
const tools = [
  'Docker',
  'PostgreSQL',
  'redis',
  'GitHub Actions',
  'webpack',
  'eslint',
  'Kubernetes',
  'React',
  'Go',
];
const commands = [
  '`npm run build`',
  '`pnpm test`',
  '`make lint`',
  'npm install -D vitest',
  'git rebase',
  'pip install requests==2.31',
];
const dates = [
  '2024-05-07',
  '7 May 2023',
  'May 7, 2023',
  '8:56 pm on 20 July, 2023',
  'yesterday',
  'last week',
];
const envs = ['DATABASE_URL', 'process.env.NODE_ENV', '$HOME', 'GITHUB_TOKEN'];
const urls = [
  'https://github.com/acme/engram/pull/42',
  'https://docs.python.org/3/library/re.html',
  'www.example.com',
];
const prose = [
  'I went to a support group and it was really powerful to hear everyone share their stories about transition and family.',
  'We spent the whole afternoon hiking near the lake, and honestly the view at the top made the blisters worth it.',
  'The painting class on Thursday evenings has become my favourite part of the week, even when my lines come out wobbly.',
  'After a long discussion the team agreed to keep the old behaviour until the migration is finished and verified.',
];

function pick<T>(list: readonly T[], i: number): T {
  return list[i % list.length] as T;
}

function sentence(i: number): string {
  const kind = i % 4;
  let s: string;
  if (kind === 0) {
    s = `${pick(people, i)} said: ${pick(prose, i)} On ${pick(dates, i + 1)} ${pick(people, i + 3)} joined too. ${pick(prose, i + 1)}`;
  } else if (kind === 1) {
    s = `Fixed ${pick(symbols, i)} in ${pick(files, i)} after ${pick(tools, i)} failed; run ${pick(commands, i)} and check ${pick(envs, i)} before ${pick(dates, i)}. ${pick(prose, i)}`;
  } else if (kind === 2) {
    s = `Decision: use ${pick(tools, i)} with ${pick(tools, i + 2)} for ${pick(files, i + 1)}; see ${pick(urls, i)} and ${pick(symbols, i + 3)}. ${pick(people, i)} agreed. ${pick(prose, i + 2)}`;
  } else {
    s = `${pick(prose, i + 3)} ${pick(people, i + 1)} mentioned ${pick(commands, i + 2)} and ${pick(envs, i + 1)} in ${pick(files, i + 4)} on ${pick(dates, i + 2)}.`;
  }
  // Fill up with more prose, not with a repeated filler that would be cheaper than real text.
  for (let k = 1; s.length < 300; k++) s += ` ${pick(prose, i + k)}`;
  return s.slice(0, 300);
}

const corpus = Array.from({ length: 4000 }, (_, i) => sentence(i));
for (let i = 0; i < 20_000; i++) extractEntities(pick(corpus, i)); // warm up: let the JIT settle
// CPU time, not wall time: on a shared 2-core machine other processes inflate wall time.
const rounds = 11;
const cpuPerSentence: number[] = [];
let found = 0;
for (let r = 0; r < rounds; r++) {
  const before = process.cpuUsage();
  for (const s of corpus) found += extractEntities(s).length;
  const used = process.cpuUsage(before);
  cpuPerSentence.push((used.user + used.system) / corpus.length);
}
process.stdout.write(`rounds: ${cpuPerSentence.map((x) => x.toFixed(1)).join(' ')}\n`);
cpuPerSentence.sort((a, b) => a - b);
const median = cpuPerSentence[Math.floor(rounds / 2)] ?? 0;
const avgLength = corpus.reduce((n, s) => n + s.length, 0) / corpus.length;
process.stdout.write(
  `extractEntities: median ${median.toFixed(1)} µs CPU (best ${(cpuPerSentence[0] ?? 0).toFixed(1)}) per ${avgLength.toFixed(0)}-char sentence, ${corpus.length} sentences x ${rounds} rounds, ${(found / rounds / corpus.length).toFixed(1)} entities each\n`,
);

let redactTotal = 0;
const beforeRedact = process.cpuUsage();
for (const s of corpus) redactTotal += redactSecrets(s).redactions.length;
const redactUsed = process.cpuUsage(beforeRedact);
process.stdout.write(
  `redactSecrets: ${((redactUsed.user + redactUsed.system) / corpus.length).toFixed(1)} µs CPU per sentence (${redactTotal} redactions)\n`,
);

const size = 100_000;
const units = [
  'a/',
  'a.',
  'Ab ',
  '`a',
  'a(',
  'a->',
  '1 May ',
  'npm install ',
  'A_B=',
  'Zoë ’',
  'password=',
  'eyJ',
];
let slowest = { unit: '', ms: 0 };
for (const unit of units) {
  const text = unit.repeat(Math.ceil(size / unit.length)).slice(0, size);
  const started = performance.now();
  extractEntities(text);
  redactSecrets(text);
  const ms = performance.now() - started;
  if (ms > slowest.ms) slowest = { unit, ms };
}
process.stdout.write(
  `pathological 100 KB inputs: slowest ${JSON.stringify(slowest.unit)} at ${slowest.ms.toFixed(0)} ms (extract + redact)\n`,
);
