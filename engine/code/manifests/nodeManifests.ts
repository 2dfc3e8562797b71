import { parse as parseJsonc } from 'jsonc-parser';
import type { ManifestRecord } from '../types';
import { isRecord, stringMap } from './manifestValues';

/** package.json: the package name, npm scripts and dependencies with their version ranges. */
export function readPackageJson(text: string): ManifestRecord {
  const json: unknown = JSON.parse(text);
  if (!isRecord(json)) throw new Error('package.json is not an object');
  return {
    kind: 'package.json',
    name: typeof json.name === 'string' ? json.name : null,
    data: {
      scripts: stringMap(json.scripts),
      // Optional and peer dependencies are the project's too (`fsevents`, a framework it plugs into).
      dependencies: {
        ...stringMap(json.optionalDependencies),
        ...stringMap(json.peerDependencies),
        ...stringMap(json.dependencies),
      },
      devDependencies: stringMap(json.devDependencies),
    },
  };
}

/**
 * tsconfig.json / jsconfig.json (JSON with comments and trailing commas): `baseUrl` and `paths`,
 * which import resolution needs. `extends` is not followed.
 */
export function readTsconfig(text: string): ManifestRecord {
  const json: unknown = parseJsonc(text, [], { allowTrailingComma: true });
  const options = isRecord(json) && isRecord(json.compilerOptions) ? json.compilerOptions : {};
  const paths: Record<string, string[]> = {};
  if (isRecord(options.paths)) {
    for (const [pattern, targets] of Object.entries(options.paths)) {
      if (Array.isArray(targets)) paths[pattern] = targets.filter((t): t is string => typeof t === 'string');
    }
  }
  return {
    kind: 'tsconfig',
    name: null,
    data: { ...(typeof options.baseUrl === 'string' ? { baseUrl: options.baseUrl } : {}), paths },
  };
}
