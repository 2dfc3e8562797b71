/**
 * The memories of the drift benchmarks, taken from a repository's Markdown at a commit: the
 * candidate doc blocks of its README and docs (what the labels were drawn from), and, for a run at
 * scale, further blocks to top them up (see `scaleMemories`).
 */
import { git } from '../driftBench';
import { docBlocks, isCandidate } from './docBlocks';
import type { DocBlock } from './docBlocks';

export interface DocMemory extends DocBlock {
  file: string;
}

const DOCS_RE = /^(README\.md|docs\/.*\.md|documentation\/.*\.md)$/i;
const NOT_DOCS_RE = /changelog|history|node_modules\//i;

/** The blocks of every Markdown file at `commit` that `wanted` accepts (changelogs left out). */
function blocksAt(ws: string, commit: string, wanted: (file: string) => boolean): DocMemory[] {
  return git(ws, ['ls-tree', '-r', '--name-only', commit])
    .split('\n')
    .filter((f) => /\.md$/i.test(f) && wanted(f) && !NOT_DOCS_RE.test(f))
    .flatMap((file) =>
      docBlocks(git(ws, ['show', `${commit}:${file}`])).map((block) => ({ ...block, file })),
    );
}

/** The candidate doc blocks of README and docs at `commit` (the bench's explore set). */
export function candidateBlocks(ws: string, commit: string): DocMemory[] {
  return blocksAt(ws, commit, (f) => DOCS_RE.test(f)).filter((b) => isCandidate(b.text));
}

/**
 * `count` memories for a run at scale: the candidate doc blocks, then, while short of `count`,
 * candidate blocks of the other Markdown files, then the docs' blocks that are not candidates (in
 * that order: the nearest to what a user would remember first). `candidates` says how many came
 * from the first set.
 */
export function scaleMemories(
  ws: string,
  commit: string,
  count: number,
): { memories: DocMemory[]; candidates: number } {
  const all = blocksAt(ws, commit, () => true);
  const docs = all.filter((b) => DOCS_RE.test(b.file));
  const candidates = docs.filter((b) => isCandidate(b.text));
  const others = all.filter((b) => !DOCS_RE.test(b.file) && isCandidate(b.text));
  const plain = docs.filter((b) => !isCandidate(b.text));
  const memories = [...candidates, ...others, ...plain].slice(0, count);
  return { memories, candidates: Math.min(candidates.length, count) };
}
