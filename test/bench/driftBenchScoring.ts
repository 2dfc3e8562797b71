import { spawnSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { ClaimReport, DriftReport } from '../../engine/drift/driftReport';
import { call, docParagraphs, git, openHost, remember } from './driftBench';
import type { RepoSpec } from './driftBench';

/** The oracle's view of one commit: its files and folders, and its root package.json. */
interface Snapshot {
  commit: string;
  paths: Set<string>;
  basenames: Set<string>;
  scripts: Set<string>;
  /** Dependency (lower-cased) -> version requirement ('' for the package itself). */
  dependencies: Map<string, string>;
}

function snapshot(root: string, commit: string): Snapshot {
  const files = git(root, ['ls-tree', '-r', '--name-only', commit]).split('\n').filter(Boolean);
  const paths = new Set<string>();
  for (const file of files) {
    const parts = file.split('/');
    for (let i = 1; i <= parts.length; i++) paths.add(parts.slice(0, i).join('/'));
  }
  return {
    commit,
    paths,
    basenames: new Set(files.map((f) => path.posix.basename(f))),
    ...(packageAt(root, commit) ?? { scripts: new Set(), dependencies: new Map() }),
  };
}

/**
 * The root package.json's scripts and dependencies at a commit (empty when it is absent), or
 * undefined when it is there but not JSON (a merge that committed conflict markers).
 */
function packageAt(root: string, commit: string): Pick<Snapshot, 'scripts' | 'dependencies'> | undefined {
  const key = `${root}\u0000${commit}`;
  if (!packages.has(key)) packages.set(key, readPackageAt(root, commit));
  return packages.get(key);
}

const packages = new Map<string, Pick<Snapshot, 'scripts' | 'dependencies'> | undefined>();

function readPackageAt(root: string, commit: string): Pick<Snapshot, 'scripts' | 'dependencies'> | undefined {
  const run = spawnSync('git', ['show', `${commit}:package.json`], { cwd: root, encoding: 'utf8' });
  let pkg: Record<string, Record<string, string> | string> = {};
  if (run.status === 0) {
    try {
      pkg = JSON.parse(run.stdout) as Record<string, Record<string, string> | string>;
    } catch {
      return undefined;
    }
  }
  const keys = (field: string) => Object.keys((pkg[field] as Record<string, string> | undefined) ?? {});
  const dependencies = new Map<string, string>();
  for (const field of ['dependencies', 'devDependencies', 'peerDependencies'])
    for (const [name, version] of Object.entries((pkg[field] as Record<string, string> | undefined) ?? {}))
      dependencies.set(name.toLowerCase(), version);
  if (typeof pkg['name'] === 'string') dependencies.set(pkg['name'].toLowerCase(), '');
  return { scripts: new Set(keys('scripts')), dependencies };
}

function wordsAt(root: string, commit: string, words: string[]): Set<string> {
  const found = new Set<string>();
  for (let i = 0; i < words.length; i += 300) {
    const args = ['grep', '-o', '-h', '-w', '-F', '-I'];
    for (const w of words.slice(i, i + 300)) args.push('-e', w);
    for (const line of git(root, [...args, commit]).split('\n')) if (line) found.add(line);
  }
  return found;
}

/** The workspace path a claimed path names, for the oracle, or undefined when it is outside. */
function candidates(subject: string, sourceFile: string | undefined): string[] | undefined {
  if (subject.startsWith('/') || subject.startsWith('~') || /^[A-Za-z]:/.test(subject)) return undefined;
  const clean = (p: string) => path.posix.normalize(p).replace(/^\.\//, '').replace(/\/$/, '');
  const own = clean(subject);
  if (own.startsWith('..')) return undefined;
  const list = [own];
  if (sourceFile) {
    const beside = clean(path.posix.join(path.posix.dirname(sourceFile), subject));
    if (!beside.startsWith('..')) list.push(beside);
  }
  return list;
}

type Truth = 'stale' | 'ok' | 'never' | 'unscored';

export async function benchRepository(spec: RepoSpec, dir: string) {
  const ws = path.join(dir, 'ws');
  git(dir, ['clone', '-q', spec.repo, ws]);
  const from = git(ws, ['rev-parse', spec.from]).trim();
  const to = git(ws, ['rev-parse', spec.to]).trim();
  git(ws, ['checkout', '-q', '--detach', to]);
  const fromTime = Number(git(ws, ['show', '-s', '--format=%ct', from]).trim()) * 1000;
  const paragraphs = docParagraphs(ws, from);
  const host = await openHost(path.join(dir, 'memory.db'), ws);
  try {
    await remember(host, paragraphs, fromTime);
    const started = performance.now();
    const report = await call<DriftReport>(host, 'drift', { all: true });
    const millis = performance.now() - started;
    const sources = new Map(
      host.store
        .read((r) =>
          r.all<{ id: string; source: string | null }>(
            'SELECT id, source FROM memories WHERE superseded_at IS NULL',
          ),
        )
        .map((row) => [row.id, row.source ? (JSON.parse(row.source) as { file?: string }).file : undefined]),
    );
    return {
      repo: spec.repo,
      from: spec.from,
      to: spec.to,
      memories: paragraphs.length,
      ...score(ws, report, sources, from, to),
      millis: Math.round(millis),
      history: report.history.note,
    };
  } finally {
    await host.close();
  }
}

function score(
  ws: string,
  report: DriftReport,
  sources: Map<string, string | undefined>,
  from: string,
  to: string,
) {
  const old = snapshot(ws, from);
  const now = snapshot(ws, to);
  const claims = report.memories.flatMap((m) =>
    m.claims.map((c) => ({ claim: c, source: sources.get(m.id) })),
  );
  const symbolNames = [
    ...new Set(claims.filter((c) => c.claim.kind === 'symbol').map((c) => lastPart(c.claim.subject))),
  ];
  const symbolsOld = wordsAt(ws, from, symbolNames);
  const symbolsNew = wordsAt(ws, to, symbolNames);
  const renames = renameMap(ws, from, to);
  let [tp, fp, fn, tn, never, unscored] = [0, 0, 0, 0, 0, 0];
  let [attributed, attributedRight, moves, movesRight] = [0, 0, 0, 0];
  for (const { claim, source } of claims) {
    const truth = truthOf(ws, claim, source, old, now, symbolsOld, symbolsNew);
    const drifted = claim.verdict === 'stale' || claim.verdict === 'moved';
    if (truth === 'never') never++;
    else if (truth === 'unscored') unscored++;
    else if (truth === 'stale') {
      if (drifted) tp++;
      else fn++;
      const expected = oracleCommit(ws, claim, source, from, to);
      if (expected) {
        attributed++;
        if (claim.evidence.commit?.hash === expected) attributedRight++;
        else if (process.env['DRIFT_BENCH_DEBUG'])
          process.stderr.write(
            `MISS ${claim.kind} ${claim.subject}${claim.version ? `@${claim.version}` : ''} expected ${expected.slice(0, 8)} got ${claim.evidence.commit?.hash.slice(0, 8) ?? '-'} ${claim.evidence.reason}\n`,
          );
      }
    } else if (drifted) {
      fp++;
      if (process.env['DRIFT_BENCH_DEBUG'])
        process.stderr.write(`FP ${claim.kind} ${claim.subject} ${JSON.stringify(claim.evidence)}\n`);
    } else tn++;
    if (claim.verdict === 'moved' && claim.kind === 'path' && renames.has(cleanPath(claim.subject))) {
      moves++;
      if (followRenames(renames, cleanPath(claim.subject), now) === claim.evidence.target) movesRight++;
    }
  }
  const ratio = (a: number, b: number) => (b === 0 ? null : Math.round((1000 * a) / b) / 1000);
  return {
    claims: report.checked.claims,
    verdicts: report.verdicts,
    staleFound: report.verdicts.stale + report.verdicts.moved,
    score: report.score,
    oracle: { stale: tp + fn, ok: tn + fp, never, unscored },
    precision: ratio(tp, tp + fp),
    recall: ratio(tp, tp + fn),
    attribution: {
      checked: attributed,
      right: attributedRight,
      accuracy: ratio(attributedRight, attributed),
    },
    renameRepairs: { checked: moves, right: movesRight, accuracy: ratio(movesRight, moves) },
  };
}

function lastPart(subject: string): string {
  return subject.split('.').pop() ?? subject;
}

function cleanPath(p: string): string {
  return path.posix.normalize(p).replace(/^\.\//, '').replace(/\/$/, '');
}

function truthOf(
  ws: string,
  claim: ClaimReport,
  source: string | undefined,
  old: Snapshot,
  now: Snapshot,
  symbolsOld: Set<string>,
  symbolsNew: Set<string>,
): Truth {
  if (claim.negated) return 'unscored';
  let before: boolean;
  let after: boolean;
  if (claim.kind === 'path') {
    const list = candidates(claim.subject, source);
    if (!list) return 'unscored';
    const bare = !claim.subject.includes('/');
    const has = (s: Snapshot) => list.some((p) => s.paths.has(p)) || (bare && s.basenames.has(claim.subject));
    [before, after] = [has(old), has(now)];
  } else if (claim.kind === 'symbol') {
    const name = lastPart(claim.subject);
    before = symbolsOld.has(name);
    after = symbolsNew.has(name);
    if (after && claim.file) {
      // Said to be in a file: true only if it is still in that file.
      after =
        spawnSync('git', ['grep', '-q', '-w', '-F', '-e', name, now.commit, '--', claim.file], { cwd: ws })
          .status === 0;
    }
  } else if (claim.kind === 'script' || claim.kind === 'dependency') {
    [before, after] = [manifestHolds(claim, old), manifestHolds(claim, now)];
  } else return 'unscored';
  if (after) return 'ok';
  return before ? 'stale' : 'never';
}

/** A script claim: declared. A dependency: present, and on the major version the text gives, if any. */
function manifestHolds(claim: ClaimReport, s: Pick<Snapshot, 'scripts' | 'dependencies'>): boolean {
  if (claim.kind === 'script') return s.scripts.has(claim.subject);
  const declared = s.dependencies.get(claim.subject.toLowerCase());
  if (declared === undefined) return false;
  const major = (v: string) => /(\d+)/.exec(v)?.[1];
  return claim.version === undefined || declared === '' || major(declared) === major(claim.version);
}

/**
 * The commit that made a claim false: the earliest commit on the way from OLD to NEW
 * (`--ancestry-path`: descendants of OLD, so a branch forked earlier counts from its merge) after
 * which the claim no longer holds, by the plainest git question for its kind.
 */
function oracleCommit(
  ws: string,
  claim: ClaimReport,
  source: string | undefined,
  from: string,
  to: string,
): string | undefined {
  const range = `${from}..${to}`;
  const first = (out: string) => out.split('\n')[0]?.trim() || undefined;
  if (claim.kind === 'path') {
    // The first deletion or rename of the path.
    const list = candidates(claim.subject, source) ?? [];
    for (const p of list) {
      const hash = first(
        git(ws, ['log', '--reverse', '--ancestry-path', '--format=%H', '--diff-filter=DR', range, '--', p]),
      );
      if (hash) return hash;
    }
    return undefined;
  }
  if (claim.kind === 'symbol') {
    // The first commit changing the word's count in the files that held it, after which none does.
    const name = lastPart(claim.subject);
    const files = git(ws, ['grep', '-l', '-w', '-F', '-e', name, from])
      .split('\n')
      .filter(Boolean)
      .map((f) => f.slice(from.length + 1))
      .slice(0, 200);
    if (files.length === 0) return undefined;
    const changes = git(ws, [
      'log',
      '--reverse',
      '--ancestry-path',
      '--format=%H',
      `-S${name}`,
      range,
      '--',
      ...files,
    ])
      .split('\n')
      .filter(Boolean);
    const gone = (c: string) =>
      spawnSync('git', ['grep', '-q', '-w', '-F', '-e', name, c, '--', ...files], { cwd: ws }).status === 1;
    return changes.find(gone) ?? changes[changes.length - 1];
  }
  // Scripts and dependencies: the first version of package.json in the range where it no longer holds.
  const versions = git(ws, [
    'log',
    '--reverse',
    '--ancestry-path',
    '--format=%H',
    range,
    '--',
    'package.json',
  ])
    .split('\n')
    .filter(Boolean);
  return versions.find((c) => {
    const manifest = packageAt(ws, c);
    return manifest !== undefined && !manifestHolds(claim, manifest);
  });
}

function renameMap(ws: string, from: string, to: string): Map<string, string> {
  const map = new Map<string, string>();
  const out = git(ws, ['log', '-M', '--name-status', '--diff-filter=R', '--format=', `${from}..${to}`]);
  for (const line of out.split('\n')) {
    const [status, a, b] = line.split('\t');
    if (status?.startsWith('R') && a && b && !map.has(a)) map.set(a, b);
  }
  return map;
}

function followRenames(renames: Map<string, string>, start: string, now: Snapshot): string | undefined {
  let at = renames.get(start);
  for (let hop = 0; at !== undefined && hop < 20; hop++) {
    if (now.paths.has(at)) return at;
    at = renames.get(at);
  }
  return undefined;
}

/** `count` memories (the docs' paragraphs, repeated with a number so each is distinct), checked with and without git. */
export async function benchScale(spec: RepoSpec, dir: string, count: number) {
  mkdirSync(dir, { recursive: true });
  const ws = path.join(dir, 'ws');
  git(dir, ['clone', '-q', spec.repo, ws]);
  const from = git(ws, ['rev-parse', spec.from]).trim();
  git(ws, ['checkout', '-q', '--detach', git(ws, ['rev-parse', spec.to]).trim()]);
  const noGit = path.join(dir, 'nogit');
  mkdirSync(noGit);
  const archive = spawnSync('git', ['archive', 'HEAD'], { cwd: ws, maxBuffer: 1 << 30 });
  spawnSync('tar', ['-x', '-C', noGit], { input: archive.stdout });
  const fromTime = Number(git(ws, ['show', '-s', '--format=%ct', from]).trim()) * 1000;
  const paragraphs = docParagraphs(ws, from);
  const items = Array.from({ length: count }, (_, i) => {
    const p = paragraphs[i % paragraphs.length] as { file: string; text: string };
    return { file: p.file, text: `${p.text} (#${i})` };
  });
  const result: Record<string, unknown> = { memories: count };
  for (const [label, root] of [
    ['withoutGit', noGit],
    ['withGit', ws],
  ] as const) {
    const host = await openHost(path.join(dir, `${label}.db`), root);
    try {
      await remember(host, items, fromTime);
      let started = performance.now();
      const first = await call<DriftReport>(host, 'drift', {});
      const firstMillis = performance.now() - started;
      started = performance.now();
      await call<DriftReport>(host, 'drift', {});
      const againMillis = performance.now() - started;
      result[label] = {
        claims: first.checked.claims,
        firstCheckSeconds: Math.round(firstMillis) / 1000,
        recheckSeconds: Math.round(againMillis) / 1000,
        history: first.history.note,
      };
    } finally {
      // A failure closing the store (a journal compaction, outside drift) must not lose the timings.
      await host.close().catch((error: unknown) => {
        result[`${label}CloseError`] = error instanceof Error ? error.message : String(error);
      });
    }
  }
  return result;
}
