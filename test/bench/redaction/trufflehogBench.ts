// Redaction recall on trufflehog's detector test cases, a second public corpus beside gitleaks'
// (redactionBench.ts), read from a bare mirror or checkout given on the command line: nothing of
// it is copied into this repository. The labels are trufflehog's: every result a pattern test
// wants found must be gone after redaction. Split by detector name like gitleaks' rules: a-m (and
// digits) may be tuned on, n-z is only reported, so a service's token format learnt here is never
// one whose held-out gitleaks rule (n-z) it would also score. Redaction is capture's: secrets,
// then e-mail addresses and phone numbers (some detectors want an address).
// Usage: node --import tsx test/bench/redaction/trufflehogBench.ts TRUFFLEHOG_DIR [--misses N]
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { redactPersonal } from '../../../engine/capture/captureRedaction';
import { redactSecrets } from '../../../engine/extract/secrets';
import { casesOfTestFile, type TrufflehogCase } from './trufflehogCases';

const DETECTORS = 'pkg/detectors';

export interface TrufflehogPart {
  part: 'tuning (a-m)' | 'reported (n-z)';
  detectors: number;
  positives: number;
  caught: number;
  skipped: number;
  misses: TrufflehogCase[];
}

/** Every detector pattern test file's text, by path, from a bare mirror (HEAD) or a checkout. */
function testFiles(dir: string): { commit: string; files: Map<string, string> } {
  const bare = !existsSync(path.join(dir, DETECTORS));
  const git = (args: string[], input?: string) =>
    execFileSync('git', [bare ? `--git-dir=${dir}` : `-C${dir}`, ...args], {
      input,
      maxBuffer: 512 << 20,
    });
  const names = git(['ls-tree', '-r', '--name-only', 'HEAD', DETECTORS])
    .toString('utf8')
    .split('\n')
    .filter((f) => f.endsWith('_test.go') && !f.endsWith('integration_test.go'));
  const batch = git(['cat-file', '--batch'], names.map((n) => `HEAD:${n}`).join('\n') + '\n');
  const files = new Map<string, string>();
  let at = 0;
  for (const name of names) {
    const headerEnd = batch.indexOf(10, at);
    const size = Number(batch.subarray(at, headerEnd).toString('utf8').split(' ')[2]);
    files.set(name, batch.subarray(headerEnd + 1, headerEnd + 1 + size).toString('utf8'));
    at = headerEnd + 1 + size + 1;
  }
  return { commit: git(['rev-parse', 'HEAD']).toString('utf8').trim(), files };
}

/** What capture stores of a text: secrets, then e-mail addresses and phone numbers (a detector's result may be one). */
function redacted(text: string): string {
  return redactPersonal(redactSecrets(text).text);
}

export function trufflehogScores(dir: string): { commit: string; parts: TrufflehogPart[] } {
  const { commit, files } = testFiles(dir);
  const parts: TrufflehogPart[] = [];
  for (const part of ['tuning (a-m)', 'reported (n-z)'] as const) {
    const score: TrufflehogPart = { part, detectors: 0, positives: 0, caught: 0, skipped: 0, misses: [] };
    const detectors = new Set<string>();
    for (const [file, src] of files) {
      const detector = file.slice(DETECTORS.length + 1).split('/')[0] ?? '';
      if (detector.endsWith('_test.go')) continue; // the detectors package's own tests, not a detector
      if (/^[0-9a-m]/i.test(detector) !== (part === 'tuning (a-m)')) continue;
      detectors.add(detector);
      const { cases, skipped } = casesOfTestFile(detector, src);
      score.skipped += skipped;
      for (const c of cases) {
        score.positives++;
        const text = redacted(c.text);
        if (c.secrets.every((s) => !text.includes(s))) score.caught++;
        else score.misses.push(c);
      }
    }
    score.detectors = detectors.size;
    parts.push(score);
  }
  return { commit, parts };
}

export function trufflehogLines(dir: string, misses = 0): string[] {
  const { commit, parts } = trufflehogScores(dir);
  const lines = [`redaction on trufflehog detector tests (${commit.slice(0, 12)}):`];
  for (const p of parts) {
    const recall = p.positives === 0 ? 0 : p.caught / p.positives;
    lines.push(
      `  ${p.part}: ${p.detectors} detectors, recall ${recall.toFixed(3)} (${p.caught}/${p.positives} cases), ${p.skipped} cases skipped (unevaluated Go)`,
    );
    if (misses > 0 && p.part === 'tuning (a-m)') {
      const byDetector = new Map<string, TrufflehogCase>();
      for (const m of p.misses) if (!byDetector.has(m.detector)) byDetector.set(m.detector, m);
      for (const m of [...byDetector.values()].slice(0, misses)) {
        lines.push(
          `    missed ${m.detector} ${JSON.stringify(m.secrets)}: ${JSON.stringify(redacted(m.text).slice(0, 200))}`,
        );
      }
    }
  }
  return lines;
}

if (require.main === module) {
  const dir = process.argv[2];
  if (!dir) {
    process.stderr.write('usage: trufflehogBench.ts TRUFFLEHOG_DIR [--misses N]\n');
    process.exit(2);
  }
  const at = process.argv.indexOf('--misses');
  process.stdout.write(`${trufflehogLines(dir, at === -1 ? 0 : Number(process.argv[at + 1])).join('\n')}\n`);
}
