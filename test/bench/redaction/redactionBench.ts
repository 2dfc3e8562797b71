// Redaction recall and precision on gitleaks' own rule test cases (the true and false positives
// each rule is validated with in cmd/generate/config/rules/*.go), read from a checkout or a bare
// mirror given on the command line: nothing of it is copied into this repository. The labels are
// the scanner's: a true positive must lose its secret (or, for a literal case, get a redaction),
// a false positive must come through untouched. The rules files are split by name: a-m (and
// digits) is the part Engram's patterns may be tuned on, n-z is held out and only reported.
// Usage: node --import tsx test/bench/redaction/redactionBench.ts GITLEAKS_DIR [--misses N]
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { redactSecrets } from '../../../engine/extract/secrets';
import type { GoCase } from './goCases';
import { seededRandom } from '../../support/seededRandom';
import { casesOfRuleFile, sampleTemplates } from './goCases';

const RULES = 'cmd/generate/config/rules';
const GENERATE = 'cmd/generate/config/utils/generate.go';

export interface PartScore {
  part: 'tuning (a-m)' | 'held out (n-z)';
  files: number;
  positives: number;
  caught: number;
  negatives: number;
  flagged: number;
  recall: number;
  precision: number;
  skippedExpressions: number;
  misses: GoCase[];
  falseAlarms: GoCase[];
}

/** A checkout's file, or a bare mirror's at HEAD. */
function reader(dir: string): { list: () => string[]; read: (file: string) => string; commit: string } {
  if (existsSync(path.join(dir, RULES))) {
    return {
      list: () => readdirSync(path.join(dir, RULES)),
      read: (file) => readFileSync(path.join(dir, file), 'utf8'),
      commit: 'checkout',
    };
  }
  const git = (...args: string[]) =>
    execFileSync('git', ['--git-dir', dir, ...args], { encoding: 'utf8', maxBuffer: 64 << 20 });
  return {
    list: () => git('ls-tree', '--name-only', `HEAD:${RULES}`).split('\n').filter(Boolean),
    read: (file) => git('show', `HEAD:${file}`),
    commit: git('rev-parse', 'HEAD').trim(),
  };
}

export function redactionScores(dir: string): { commit: string; parts: PartScore[] } {
  const source = reader(dir);
  const context = { templates: sampleTemplates(source.read(GENERATE)), random: seededRandom(20) };
  const parts: PartScore[] = [];
  for (const part of ['tuning (a-m)', 'held out (n-z)'] as const) {
    const files = source
      .list()
      .filter((f) => f.endsWith('.go') && !f.endsWith('_test.go'))
      .filter((f) => (/^[0-9a-m]/i.test(f) ? part === 'tuning (a-m)' : part === 'held out (n-z)'));
    const score: PartScore = {
      part,
      files: files.length,
      positives: 0,
      caught: 0,
      negatives: 0,
      flagged: 0,
      recall: 0,
      precision: 0,
      skippedExpressions: 0,
      misses: [],
      falseAlarms: [],
    };
    for (const file of files) {
      const { cases, skipped } = casesOfRuleFile(file, source.read(`${RULES}/${file}`), context);
      score.skippedExpressions += skipped;
      for (const c of cases) {
        const { text, redactions } = redactSecrets(c.text);
        if (c.label === 'secret') {
          score.positives++;
          const hit = c.secret ? !text.includes(c.secret) : redactions.length > 0;
          if (hit) score.caught++;
          else score.misses.push(c);
        } else {
          score.negatives++;
          if (redactions.length > 0) {
            score.flagged++;
            score.falseAlarms.push(c);
          }
        }
      }
    }
    score.recall = score.positives === 0 ? 0 : score.caught / score.positives;
    score.precision = score.caught + score.flagged === 0 ? 0 : score.caught / (score.caught + score.flagged);
    parts.push(score);
  }
  return { commit: source.commit, parts };
}

export function redactionLines(dir: string, misses = 0): string[] {
  const { commit, parts } = redactionScores(dir);
  const lines = [`redaction on gitleaks rule cases (${commit.slice(0, 12)}):`];
  for (const p of parts) {
    lines.push(
      `  ${p.part}: ${p.files} rule files, recall ${p.recall.toFixed(3)} (${p.caught}/${p.positives} secrets), precision ${p.precision.toFixed(3)} (${p.flagged} of ${p.negatives} clean cases redacted), ${p.skippedExpressions} expressions skipped`,
    );
    if (misses > 0 && p.part === 'tuning (a-m)') {
      const byRule = new Map<string, GoCase>();
      for (const m of p.misses) if (!byRule.has(m.rule)) byRule.set(m.rule, m);
      for (const m of [...byRule.values()].slice(0, misses))
        lines.push(`    missed ${m.rule}: ${JSON.stringify(m.text.slice(0, 160))}`);
      for (const f of p.falseAlarms.slice(0, misses))
        lines.push(`    false alarm ${f.rule}: ${JSON.stringify(f.text.slice(0, 160))}`);
    }
  }
  return lines;
}

if (require.main === module) {
  const dir = process.argv[2];
  if (!dir) {
    process.stderr.write('usage: redactionBench.ts GITLEAKS_DIR [--misses N]\n');
    process.exit(2);
  }
  const at = process.argv.indexOf('--misses');
  process.stdout.write(`${redactionLines(dir, at === -1 ? 0 : Number(process.argv[at + 1])).join('\n')}\n`);
}
