import path from 'node:path';
import type { ManifestKind, ManifestRecord } from '../types';
import { readDockerfile, readMakefile, readWorkflow } from './buildFiles';
import { readCargoToml } from './cargoToml';
import { readGoMod } from './goMod';
import { readPackageJson, readTsconfig } from './nodeManifests';
import { readPyproject } from './pythonManifests';

const READERS: Record<ManifestKind, (text: string) => ManifestRecord> = {
  'package.json': readPackageJson,
  tsconfig: readTsconfig,
  pyproject: readPyproject,
  'go.mod': readGoMod,
  cargo: readCargoToml,
  makefile: readMakefile,
  dockerfile: readDockerfile,
  'ci-workflow': readWorkflow,
};

/** Which manifest a root-relative path is, by its name and place, or undefined for ordinary files. */
export function manifestKindOf(relativePath: string): ManifestKind | undefined {
  const base = path.posix.basename(relativePath);
  if (base === 'package.json') return 'package.json';
  if (/^[jt]sconfig(\..+)?\.json$/.test(base)) return 'tsconfig';
  if (base === 'pyproject.toml') return 'pyproject';
  if (base === 'go.mod') return 'go.mod';
  if (base === 'Cargo.toml') return 'cargo';
  if (base === 'Makefile' || base === 'makefile' || base === 'GNUmakefile') return 'makefile';
  if (base === 'Dockerfile' || base.startsWith('Dockerfile.') || base.endsWith('.dockerfile'))
    return 'dockerfile';
  if (/(^|\/)\.github\/workflows\/[^/]+\.ya?ml$/.test(relativePath)) return 'ci-workflow';
  return undefined;
}

/**
 * Reads a manifest with its format's parser. A malformed manifest still yields a record that
 * says what was wrong, so a half-edited package.json never stops a scan.
 */
export function readManifest(kind: ManifestKind, text: string): ManifestRecord {
  try {
    return READERS[kind](text);
  } catch (error) {
    return { kind, name: null, data: { error: (error as Error).message.split('\n')[0] ?? 'unreadable' } };
  }
}
