import { closeSync, openSync, readFileSync, readSync } from 'node:fs';
import path from 'node:path';
import { readManifest } from '../code/manifests/readManifest';
import type { ManifestData, ManifestKind } from '../code/types';
import type { SqlReader } from '../store/sqlAccess';
import { pathState } from './workspacePaths';

/** What the workspace's manifests declare, merged over every manifest the code index holds. */
export interface ManifestFacts {
  /** Script or Makefile target -> the manifests declaring it. */
  scripts: Map<string, string[]>;
  /** Dependency (lower-cased) -> version requirement and manifest. */
  dependencies: Map<string, { version: string; file: string }>;
  /**
   * The workspace's own package names, the root package's first: a doc importing its own package
   * is not a dependency.
   */
  ownNames: Set<string>;
  /** The project's programs (package.json `bin`). */
  programs: Set<string>;
  /** Own package name (lower-cased) -> its package.json, for subpaths (`pino/file`). */
  packageFiles: Map<string, string>;
  /** Manifest files read, for attribution by pickaxe. */
  files: string[];
}

const ROOT_MANIFESTS: ReadonlyArray<[string, ManifestKind]> = [
  ['package.json', 'package.json'],
  ['Makefile', 'makefile'],
  ['pyproject.toml', 'pyproject'],
  ['Cargo.toml', 'cargo'],
  ['go.mod', 'go.mod'],
];

export function readManifestFacts(reader: SqlReader, root: string, realRoot: string): ManifestFacts {
  const facts: ManifestFacts = {
    scripts: new Map(),
    dependencies: new Map(),
    ownNames: new Set(),
    programs: new Set(),
    packageFiles: new Map(),
    files: [],
  };
  const indexed = reader.all<{ path: string; name: string | null; data: string }>(
    'SELECT f.path, m.name, m.data FROM code_manifests m JOIN code_files f ON f.id = m.file_id ORDER BY f.path',
  );
  for (const row of indexed) add(facts, row.path, row.name, JSON.parse(row.data) as ManifestData);
  // Without a scan, the root manifests are read directly (inside the root, never through a link out).
  for (const [file, kind] of ROOT_MANIFESTS) {
    if (facts.files.includes(file) || pathState(root, realRoot, file) !== 'file') continue;
    const text = readFileSync(path.join(root, file), 'utf8');
    const record = readManifest(kind, text);
    add(facts, file, record.name, record.data);
  }
  if (pathState(root, realRoot, 'package.json') === 'file') {
    addPrograms(facts, root);
    addLockfileName(facts, root, realRoot);
  }
  return rootNameFirst(facts);
}

/** The lockfile's head: its root `name` comes before any package entry. */
const LOCK_HEAD_BYTES = 4096;
const LOCK_NAME_RE = /^\{\s*"name"\s*:\s*"([^"\n]{1,214})"/;

/**
 * A root package.json without a name (a private development manifest, the published one built
 * elsewhere, as helmet's is) still has one in package-lock.json, which npm writes from the
 * package's name or its folder's: the docs call the package by it.
 */
function addLockfileName(facts: ManifestFacts, root: string, realRoot: string): void {
  if ([...facts.packageFiles.values()].includes('package.json')) return;
  if (pathState(root, realRoot, 'package-lock.json') !== 'file') return;
  const fd = openSync(path.join(root, 'package-lock.json'), 'r');
  try {
    const head = Buffer.alloc(LOCK_HEAD_BYTES);
    const name = LOCK_NAME_RE.exec(head.toString('utf8', 0, readSync(fd, head, 0, LOCK_HEAD_BYTES, 0)))?.[1];
    if (name === undefined) return;
    facts.ownNames.add(name.toLowerCase());
    facts.packageFiles.set(name.toLowerCase(), 'package.json');
  } finally {
    closeSync(fd);
  }
}

/** The root package's name leads ownNames: docs that leave out a receiver mean that package. */
function rootNameFirst(facts: ManifestFacts): ManifestFacts {
  const root = [...facts.packageFiles].find(([, file]) => file === 'package.json')?.[0];
  if (root !== undefined) facts.ownNames = new Set([root, ...facts.ownNames]);
  return facts;
}

function add(facts: ManifestFacts, file: string, name: string | null, data: ManifestData): void {
  facts.files.push(file);
  if (name) facts.ownNames.add(name.toLowerCase());
  if (name && path.posix.basename(file) === 'package.json' && !facts.packageFiles.has(name.toLowerCase()))
    facts.packageFiles.set(name.toLowerCase(), file);
  for (const script of Object.keys(data.scripts ?? {})) {
    const files = facts.scripts.get(script) ?? [];
    files.push(file);
    facts.scripts.set(script, files);
  }
  for (const [dep, version] of [
    ...Object.entries(data.dependencies ?? {}),
    ...Object.entries(data.devDependencies ?? {}),
  ]) {
    facts.dependencies.set(dep.toLowerCase(), { version, file });
  }
}

function addPrograms(facts: ManifestFacts, root: string): void {
  try {
    const json = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as {
      name?: unknown;
      bin?: unknown;
      peerDependencies?: Record<string, string>;
      optionalDependencies?: Record<string, string>;
    };
    if (typeof json.bin === 'string' && typeof json.name === 'string')
      facts.programs.add(json.name.replace(/^@[^/]+\//, ''));
    if (typeof json.bin === 'object' && json.bin !== null)
      for (const name of Object.keys(json.bin)) facts.programs.add(name);
    // Peer and optional dependencies are the project's too ("built on X" holds for a peer X).
    for (const [dep, version] of Object.entries({ ...json.optionalDependencies, ...json.peerDependencies }))
      facts.dependencies.set(dep.toLowerCase(), { version, file: 'package.json' });
  } catch {
    // A malformed package.json declares nothing; the manifest reader already said what was wrong.
  }
}
