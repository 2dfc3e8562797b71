/**
 * The physical floor of a scan, for the scan benchmark: web-tree-sitter parsing the same files
 * with the same grammars and nothing else (no queries, no hashing, no database), in a child
 * process of its own, on one thread and split over two worker threads. Read time is included (a
 * scan must read every file too); the grammars load before the clock starts.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { grammarFor } from '../../engine/code/languages';

const FLOOR_SCRIPT = `
const { readFileSync } = require('node:fs');
const path = require('node:path');
const { Worker, isMainThread, parentPort, workerData } = require('node:worker_threads');
const TreeSitter = require(workerData?.runtime ?? process.argv[2]);

async function parseAll(grammars, files) {
  await TreeSitter.Parser.init({ locateFile: () => path.join(grammars, 'web-tree-sitter.wasm') });
  const parsers = new Map();
  for (const language of new Set(files.map((f) => f.language))) {
    const parser = new TreeSitter.Parser();
    parser.setLanguage(await TreeSitter.Language.load(readFileSync(path.join(grammars, 'tree-sitter-' + language + '.wasm'))));
    parsers.set(language, parser);
  }
  const cpu = process.cpuUsage();
  const started = performance.now();
  for (const f of files) parsers.get(f.language).parse(readFileSync(f.path, 'utf8')).delete();
  const used = process.cpuUsage(cpu);
  return { ms: performance.now() - started, cpuMs: (used.user + used.system) / 1000 };
}

if (!isMainThread) {
  parseAll(workerData.grammars, workerData.files).then((r) => parentPort.postMessage(r));
} else {
  const [runtime, grammars, listFile, threads] = process.argv.slice(2);
  const files = JSON.parse(readFileSync(listFile, 'utf8'));
  (async () => {
    if (threads === '1') return process.stdout.write(JSON.stringify(await parseAll(grammars, files)));
    const halves = [files.filter((_, i) => i % 2 === 0), files.filter((_, i) => i % 2 === 1)];
    const started = performance.now();
    const cpu = process.cpuUsage();
    await Promise.all(halves.map((part) => new Promise((resolve, reject) => {
      const worker = new Worker(__filename, { workerData: { runtime, grammars, files: part } });
      worker.once('message', resolve);
      worker.once('error', reject);
    })));
    const used = process.cpuUsage(cpu);
    process.stdout.write(JSON.stringify({ ms: performance.now() - started, cpuMs: (used.user + used.system) / 1000 }));
  })();
}
`;

export interface ParseFloor {
  files: number;
  /** One thread: wall and CPU ms. */
  oneThread: { ms: number; cpuMs: number };
  /** Two worker threads, each half of the files (includes starting them and loading grammars). */
  twoThreads: { ms: number; cpuMs: number };
}

/** Parses `relativePaths` of `repo` that have a grammar, with the grammars in `grammarsDirectory`. */
export function parseFloor(repo: string, relativePaths: string[], grammarsDirectory: string): ParseFloor {
  const files = relativePaths.flatMap((p) => {
    const language = grammarFor(p);
    return language ? [{ path: path.join(repo, p), language }] : [];
  });
  const work = mkdtempSync(path.join(os.tmpdir(), 'engram-parsefloor-'));
  try {
    const script = path.join(work, 'floor.cjs');
    const list = path.join(work, 'files.json');
    writeFileSync(script, FLOOR_SCRIPT);
    writeFileSync(list, JSON.stringify(files));
    const run = (threads: number) => {
      const child = spawnSync(
        process.execPath,
        [script, require.resolve('web-tree-sitter'), grammarsDirectory, list, String(threads)],
        { encoding: 'utf8', maxBuffer: 1 << 26 },
      );
      if (child.status !== 0) throw new Error(`parse floor failed (${child.status}): ${child.stderr.trim()}`);
      const out = JSON.parse(child.stdout) as { ms: number; cpuMs: number };
      return { ms: Math.round(out.ms), cpuMs: Math.round(out.cpuMs) };
    };
    return { files: files.length, oneThread: run(1), twoThreads: run(2) };
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}
