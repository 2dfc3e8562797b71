// Prints the engine's import cycles (type-only imports included, as test/support/importGraph.ts
// reads them), the directory-level ones, and the imports between engine/memory and
// engine/retrieval: the figures of issue 15, item 3 (test/boundaries/memoryLayers.test.ts keeps
// the ones removed from coming back).
// Usage: node --import tsx scripts/importCycles.ts [repository root, default this one]
import path from 'node:path';
import { importCycles, importsUnder, mutualImports } from '../test/support/importGraph';
import type { ModuleImport } from '../test/support/importGraph';

const root = path.resolve(process.argv[2] ?? path.join(__dirname, '..'));
const all = importsUnder(['engine'], root);

function report(label: string, imports: ModuleImport[]): void {
  const cycles = importCycles(imports);
  console.log(`${label}: ${cycles.length} cyclic groups [${cycles.map((c) => c.length).join(', ')}]`);
  for (const cycle of cycles) console.log(`  ${cycle.join(' ')}`);
  console.log(`  mutual pairs: ${mutualImports(imports).length}`);
}

report('modules, all imports', all);
report(
  'modules, runtime imports',
  all.filter((i) => !i.typeOnly),
);
const layer = (file: string) => file.split('/').slice(0, 2).join('/');
report(
  'directories',
  all
    .filter((i) => layer(i.from) !== layer(i.to))
    .map((i) => ({ ...i, from: layer(i.from), to: layer(i.to) })),
);
for (const [from, to] of [
  ['memory', 'retrieval'],
  ['retrieval', 'memory'],
]) {
  const between = all.filter((i) => i.from.startsWith(`engine/${from}/`) && i.to.startsWith(`engine/${to}/`));
  console.log(
    `${from} -> ${to}: ${between.length} imports (${between.filter((i) => i.typeOnly).length} type-only)`,
  );
}
