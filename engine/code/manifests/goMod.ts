import type { ManifestRecord } from '../types';

/** go.mod: the module path (the prefix of the module's own import paths) and its requirements. */
export function readGoMod(text: string): ManifestRecord {
  let name: string | null = null;
  const dependencies: Record<string, string> = {};
  let inRequireBlock = false;
  for (const raw of text.split('\n')) {
    const line = raw.replace(/\/\/.*$/, '').trim();
    if (line === '') continue;
    const module = /^module\s+(\S+)/.exec(line);
    if (module?.[1]) name = module[1].replace(/^"|"$/g, '');
    else if (/^require\s*\($/.test(line)) inRequireBlock = true;
    else if (inRequireBlock && line === ')') inRequireBlock = false;
    else {
      const requirement = inRequireBlock
        ? /^(\S+)\s+(\S+)/.exec(line)
        : /^require\s+(\S+)\s+(\S+)/.exec(line);
      if (requirement?.[1] && requirement[2]) dependencies[requirement[1]] = requirement[2];
    }
  }
  return { kind: 'go.mod', name, data: { dependencies } };
}
