/**
 * npm run figures: rewrites every generated block in the documents (FIGURE_DOCUMENTS) from the
 * benchmark records in docs/figures/. Run it after a bench run with --record; commit both.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { REPO_ROOT } from './benchRecord';
import { FIGURE_DOCUMENTS, renderBlock } from './figureBlocks';
import { rewriteBlocks } from './generatedBlocks';

try {
  for (const document of FIGURE_DOCUMENTS) {
    const file = path.join(REPO_ROOT, document);
    if (!existsSync(file)) continue;
    const before = readFileSync(file, 'utf8');
    const after = rewriteBlocks(before, document, (name) => renderBlock(name));
    if (after === before) continue;
    writeFileSync(file, after);
    console.log(`figures: rewrote the generated blocks of ${document}`);
  }
} catch (error: unknown) {
  console.error(`figures: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
}
