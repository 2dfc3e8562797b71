/**
 * Drift on real histories: ingest a repository's Markdown docs at an old commit as memories, move
 * the workspace to a later commit, run drift, and score it against a separate, simple oracle
 * (`git ls-tree` for paths, `git grep -w` for symbols, manifests at both commits for scripts and
 * dependencies, `git log --diff-filter` / `-S` for the commit). Then times 10,000 memories checked
 * without git and with git attribution.
 *
 * Usage: node --import tsx test/bench/driftBench.ts [--json] [--scale N] REPO:OLD..NEW [...]
 * (REPO is a local clone; it is cloned again to a temp directory, never changed or committed.)
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { EngineDispatcher } from '../../engine/api/engineDispatcher';
import type { DriftReport } from '../../engine/drift/driftReport';
import { silentLogger } from '../../engine/host';
import type { RememberManyResult } from '../../engine/memory/types';
import { writtenOrReported } from './batchRejections';
import { SQL_WASM_PATH_FOR_BENCH } from './driftBenchSupport';

interface RepoSpec {
  repo: string;
  from: string;
  to: string;
}

function git(cwd: string, args: string[], input?: string): string {
  const run = spawnSync('git', args, { cwd, encoding: 'utf8', maxBuffer: 1 << 30, input });
  if (run.status !== 0 && run.status !== 1) throw new Error(`git ${args.join(' ')}: ${run.stderr}`);
  return run.stdout;
}

function parseArgs(argv: string[]): { json: boolean; scale: number; specs: RepoSpec[] } {
  let json = false;
  let scale = 10_000;
  const specs: RepoSpec[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    if (arg === '--json') json = true;
    else if (arg === '--scale') scale = Number(argv[++i]);
    else {
      const m = /^(.+):([^:.]+)\.\.([^:.]+)$/.exec(arg);
      if (!m) throw new Error(`expected REPO:OLD..NEW, got ${arg}`);
      specs.push({ repo: path.resolve(m[1] as string), from: m[2] as string, to: m[3] as string });
    }
  }
  if (specs.length === 0) throw new Error('usage: driftBench [--json] [--scale N] REPO:OLD..NEW ...');
  if (!Number.isInteger(scale) || scale < 0) throw new Error(`--scale must be a whole number, got ${scale}`);
  return { json, scale, specs };
}

/** The Markdown docs at a commit, split into paragraphs: the memories of the benchmark. */
function docParagraphs(root: string, commit: string): Array<{ file: string; text: string }> {
  const files = git(root, ['ls-tree', '-r', '--name-only', commit])
    .split('\n')
    .filter((f) => /\.md$/i.test(f) && !f.includes('node_modules/'));
  const out: Array<{ file: string; text: string }> = [];
  for (const file of files) {
    const text = git(root, ['show', `${commit}:${file}`]);
    for (const paragraph of text.split(/\n\s*\n/)) {
      const trimmed = paragraph.trim();
      if (trimmed.length >= 30 && trimmed.length <= 4000) out.push({ file, text: trimmed });
    }
  }
  return out;
}

async function openHost(dbPath: string, root: string): Promise<EngineDispatcher> {
  return EngineDispatcher.open({
    dbPath,
    sqlWasmPath: SQL_WASM_PATH_FOR_BENCH,
    logger: silentLogger,
    clock: Date.now,
    snapshot: { idleMs: 600_000 },
    embedding: null,
    code: { root, grammarsDirectory: path.resolve(__dirname, '../../grammars'), runner: 'inline' },
  });
}

let request = 0;
async function call<T>(host: EngineDispatcher, method: string, params: Record<string, unknown>): Promise<T> {
  return (await host.dispatch(method, params, {
    requestId: `bench-${++request}`,
    client: 'bench',
  })) as T;
}

async function remember(
  host: EngineDispatcher,
  items: Array<{ file: string; text: string }>,
  validFrom: number,
) {
  for (let i = 0; i < items.length; i += 500) {
    const memories = items.slice(i, i + 500).map((p) => ({
      content: p.text,
      validFrom,
      source: { file: p.file },
      layer: 'semantic',
      kind: 'fact',
      dedupe: false,
    }));
    writtenOrReported(await call<RememberManyResult[]>(host, 'rememberMany', { memories }), 'drift corpus');
  }
}

export { call, docParagraphs, git, openHost, parseArgs, remember };
export type { DriftReport, RepoSpec };

async function main(): Promise<void> {
  const { json, scale, specs } = parseArgs(process.argv.slice(2));
  const { benchRepository, benchScale } = await import('./driftBenchScoring');
  const work = mkdtempSync(path.join(os.tmpdir(), 'engram-driftbench-'));
  try {
    const repositories = [];
    for (const spec of specs) {
      const dir = path.join(work, path.basename(spec.repo));
      mkdirSync(dir);
      repositories.push(await benchRepository(spec, dir));
    }
    const last = specs[specs.length - 1] as RepoSpec;
    const scaleResult = scale > 0 ? await benchScale(last, path.join(work, 'scale'), scale) : undefined;
    const document = {
      date: new Date().toISOString(),
      machine: `${os.cpus().length} cpus, ${os.cpus()[0]?.model ?? ''}`,
      repositories,
      scale: scaleResult,
    };
    if (json) process.stdout.write(`${JSON.stringify(document, null, 2)}\n`);
    else printTable(document);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

function printTable(document: {
  repositories: Array<Record<string, unknown>>;
  scale?: Record<string, unknown>;
}): void {
  for (const r of document.repositories) process.stdout.write(`${JSON.stringify(r)}\n`);
  if (document.scale) process.stdout.write(`scale: ${JSON.stringify(document.scale)}\n`);
}

if (require.main === module) {
  main().catch((error: unknown) => {
    process.stderr.write(
      `driftBench: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
    );
    process.exit(1);
  });
}
