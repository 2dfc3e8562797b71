/**
 * A package-lock.json of about `megabytes` MB whose package names are the words of the memories
 * (the worst case for a word search: every needle occurs in it). Lockfiles are generated, never a
 * source of truth for drift, and must cost the check nothing. It keeps the root name of the lockfile
 * it replaces (`rootName`): npm records the package's name there, and a nameless package.json
 * leaves it the only record of it.
 */
export function syntheticLockfile(texts: readonly string[], megabytes: number, rootName = 'bench'): string {
  const words = [...new Set(texts.join(' ').match(/[A-Za-z_$][\w$-]{2,40}/g) ?? [])];
  const packages: Record<string, unknown> = { '': { name: rootName, version: '1.0.0' } };
  let size = 0;
  for (let i = 0; size < megabytes * 1_000_000; i++) {
    const name = `${words[i % Math.max(1, words.length)] ?? 'pkg'}-${i}`;
    const entry = {
      version: `${i % 9}.${i % 7}.${i % 5}`,
      resolved: `https://registry.example/${name}/-/${name}-1.0.0.tgz`,
      integrity: `sha512-${Buffer.from(name).toString('base64').padEnd(86, 'A')}==`,
      dependencies: { [words[(i * 7) % Math.max(1, words.length)] ?? 'dep']: '^1.0.0' },
    };
    packages[`node_modules/${name}`] = entry;
    // As printed below: the entry's own lines, each indented 4 more, under its quoted key.
    const printed = JSON.stringify(entry, null, 2);
    size += printed.length + printed.split('\n').length * 4 + name.length + 22;
  }
  return JSON.stringify({ name: rootName, lockfileVersion: 3, requires: true, packages }, null, 2);
}
