import { seededRandom } from '../support/seededRandom';

/**
 * Deterministic, varied memory texts for benchmarks: decisions, conventions and errors naming
 * files, symbols, packages, tools and people, so every write exercises entity extraction.
 */
const PEOPLE = [
  'Caroline',
  'Melanie',
  'Joanna',
  'Nate',
  'Priya',
  'Tomasz',
  'Aiko',
  'Diego',
  'Fatima',
  'Oskar',
];
const TOOLS = [
  'eslint',
  'prettier',
  'docker',
  'postgres',
  'redis',
  'webpack',
  'vite',
  'jest',
  'git',
  'kubernetes',
];
const PACKAGES = [
  '@acme/auth',
  'zod',
  'express',
  'react',
  'lodash',
  '@acme/billing',
  'pino',
  'axios',
  'dayjs',
  'ky',
];
export const DIRS = [
  'src/auth',
  'src/billing',
  'src/api',
  'packages/web/src',
  'lib/utils',
  'src/db',
  'scripts',
  'src/jobs',
];
export const FILES = [
  'index.ts',
  'session.ts',
  'client.ts',
  'rateLimit.ts',
  'schema.ts',
  'worker.ts',
  'routes.ts',
  'config.ts',
];
const VERBS = ['handles', 'validates', 'caches', 'retries', 'serialises', 'logs', 'parses', 'schedules'];
const TEMPLATES = [
  (r: Pick) =>
    `We decided that ${r(DIRS)}/${r(FILES)} ${r(VERBS)} requests through ${r(PACKAGES)} because ${r(PEOPLE)} found the old path flaky.`,
  (r: Pick) =>
    `Convention: run \`npm run lint\` before pushing; ${r(TOOLS)} config lives in ${r(DIRS)}/${r(FILES)}.`,
  (r: Pick) =>
    `Error pattern: ${camel(r(VERBS))}${cap(r(FILES).replace('.ts', ''))}() throws when ${r(TOOLS)} is down; ${r(PEOPLE)} added a retry.`,
  (r: Pick) => `${r(PEOPLE)} prefers ${r(TOOLS)} over ${r(TOOLS)} for local development of ${r(DIRS)}.`,
  (r: Pick) =>
    `The ${r(PACKAGES)} upgrade broke ${r(DIRS)}/${r(FILES)}; pin it and ask ${r(PEOPLE)} before bumping.`,
];

type Pick = <T>(list: readonly T[]) => T;

function camel(word: string): string {
  return word.replace(/s$/, '');
}
function cap(word: string): string {
  return word[0]!.toUpperCase() + word.slice(1);
}

export function syntheticMemories(count: number, seed = 1): string[] {
  const random = seededRandom(seed);
  const pick: Pick = (list) => list[Math.floor(random() * list.length)]!;
  const out: string[] = [];
  for (let i = 0; i < count; i++) out.push(`${pick(TEMPLATES)(pick)} (note ${i})`);
  return out;
}
