/**
 * Which generated blocks exist and where each one's figures come from. A block sits in a Markdown
 * file between `<!-- figures:NAME:begin -->` and `<!-- figures:NAME:end -->`.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { BenchRecord } from './benchRecord';
import { REPO_ROOT } from './benchRecord';
import { LOCALIZE_RECORD, renderLocalize, renderLocalizeRepositories } from './localizeFigures';
import type { LocalizeFigures } from './localizeFigures';
import { RECALL_MODEL_RECORD, RECALL_RECORD, renderRecall, renderRecallCategories } from './recallFigures';
import type { RecallFigures } from './recallFigures';

interface FigureBlock {
  /** The record's path from the repository root. */
  record: string;
  render: (record: BenchRecord<never>) => string;
}

const block = <F>(record: string, render: (r: BenchRecord<F>) => string): FigureBlock => ({ record, render });

export const FIGURE_BLOCKS: Readonly<Record<string, FigureBlock>> = {
  recall: block<RecallFigures>(RECALL_RECORD, renderRecall),
  'recall-categories': block<RecallFigures>(RECALL_RECORD, renderRecallCategories),
  'recall-model': block<RecallFigures>(RECALL_MODEL_RECORD, renderRecall),
  'recall-model-categories': block<RecallFigures>(RECALL_MODEL_RECORD, renderRecallCategories),
  localize: block<LocalizeFigures>(LOCALIZE_RECORD, renderLocalize),
  'localize-repositories': block<LocalizeFigures>(LOCALIZE_RECORD, renderLocalizeRepositories),
};

/**
 * The documents whose generated blocks `npm run figures` rewrites and the test checks: every
 * benchmarks page (docs/benchmarks/*.md) and the README.
 */
export const FIGURE_DOCUMENTS = [
  ...readdirSync(path.join(REPO_ROOT, 'docs/benchmarks'))
    .filter((name) => name.endsWith('.md'))
    .sort()
    .map((name) => `docs/benchmarks/${name}`),
  'README.md',
];

/** A block's Markdown from its record under `root`; a one-line error when the block or record is missing. */
export function renderBlock(name: string, root = REPO_ROOT): string {
  const entry = FIGURE_BLOCKS[name];
  if (!entry)
    throw new Error(`unknown figures block "${name}" (known: ${Object.keys(FIGURE_BLOCKS).join(', ')})`);
  const file = path.join(root, entry.record);
  if (!existsSync(file))
    throw new Error(`figures block "${name}": no record ${entry.record} (run its bench with --record)`);
  return entry.render(JSON.parse(readFileSync(file, 'utf8')) as BenchRecord<never>);
}
