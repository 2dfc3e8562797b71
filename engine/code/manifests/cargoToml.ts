import { parse as parseToml } from 'smol-toml';
import type { ManifestRecord } from '../types';
import { isRecord, versionTable } from './manifestValues';

/** Cargo.toml: the package name and its dependency tables. */
export function readCargoToml(text: string): ManifestRecord {
  const toml = parseToml(text);
  const pkg = isRecord(toml.package) ? toml.package : {};
  return {
    kind: 'cargo',
    name: typeof pkg.name === 'string' ? pkg.name : null,
    data: {
      dependencies: versionTable(toml.dependencies),
      devDependencies: versionTable(toml['dev-dependencies']),
    },
  };
}
