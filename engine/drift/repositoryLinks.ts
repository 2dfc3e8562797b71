import type { ExtractedClaim } from './claimTypes';

type Partial = Omit<ExtractedClaim, 'negated'>;

/** `https://github.com/OWNER/REPO/blob/BRANCH/PATH` (or `tree/` for a folder). */
const REPOSITORY_LINK_RE =
  /https?:\/\/github\.com\/[\w.-]+\/([\w.-]+)\/(?:blob|tree)\/(main|master|HEAD|develop|trunk)\/([^\s)#?"'<>\]`]+)/g;

/**
 * Links to a file of this project's own repository on its main branch point at the file as it is
 * now: a path claim on the path part (so a repair rewrites just that). A link pinned to a tag or a
 * commit stays valid whatever happens to the file, and another repository's file is not ours.
 * The repository is known by its name, that of one of the workspace's packages.
 */
export function matchRepositoryLinks(text: string, packages: ReadonlySet<string>, out: Partial[]): void {
  if (packages.size === 0 || !text.includes('github.com/')) return;
  const names = new Set([...packages].map((name) => name.replace(/^@[^/]+\//, '').toLowerCase()));
  REPOSITORY_LINK_RE.lastIndex = 0;
  for (let m = REPOSITORY_LINK_RE.exec(text); m !== null; m = REPOSITORY_LINK_RE.exec(text)) {
    const repository = (m[1] as string).replace(/\.git$/, '').toLowerCase();
    if (!names.has(repository)) continue;
    const file = (m[3] as string).replace(/\/$/, '');
    const start = m.index + m[0].length - (m[3] as string).length;
    out.push({ kind: 'path', subject: file, span: [start, start + file.length] });
  }
}
