import { execFile } from 'node:child_process';
import { gitEnvironment } from '../gitEnvironment';
import type { PendingMemory } from './claimStore';
import { GitFailure } from './gitFailure';
import { hasOwnHeading, headingAbove, lineAbove } from './headingClaims';
import type { SourceHeading } from './headingClaims';
import { deniesFollowingList, listAt } from './negation';
import { resolveClaimPath } from './workspacePaths';

const MARKDOWN_RE = /\.(?:md|mdx|markdown)$/i;

/** What a memory's place in its source document says about it (see sourceContexts). */
export interface SourceContext {
  /** The heading right above it, when it names something. */
  heading?: SourceHeading;
  /** A list under "the following ... are not implemented:": its items are denied. */
  deniedList?: true;
  /** A list under an "Options" heading: the names its items open with are options. */
  optionsList?: true;
}

/**
 * The heading each memory stands under in the Markdown document it was taken from (its source
 * file), and whether it is a list a denial above it announces, in that document as git had it
 * when the memory was written: the workspace's copy may have been rewritten since. A memory not
 * found verbatim there and one whose document git does not have then get neither; one with a
 * heading of its own gets no heading. Two git calls per document and time.
 */
export async function sourceContexts(
  root: string,
  memories: readonly PendingMemory[],
): Promise<Map<string, SourceContext>> {
  const byDocument = new Map<string, { file: string; validFrom: number; memories: PendingMemory[] }>();
  for (const memory of memories) {
    const file = markdownSource(root, memory);
    if (file === undefined) continue;
    const key = `${file}\u0000${memory.validFrom}`;
    let group = byDocument.get(key);
    if (!group) byDocument.set(key, (group = { file, validFrom: memory.validFrom, memories: [] }));
    group.memories.push(memory);
  }
  const contexts = new Map<string, SourceContext>();
  for (const { file, validFrom, memories: inDocument } of byDocument.values()) {
    const doc = await documentAt(root, file, validFrom);
    if (doc === undefined) continue;
    for (const memory of inDocument) {
      const heading = hasOwnHeading(memory.content) ? undefined : onlyHeading(doc, memory.content);
      const denied = deniedBelow(doc, memory.content);
      const options = listBelow(doc, memory.content, isOptionsHeading);
      if (heading || denied || options)
        contexts.set(memory.id, {
          ...(heading ? { heading } : {}),
          ...(denied ? { deniedList: true } : {}),
          ...(options ? { optionsList: true } : {}),
        });
    }
  }
  return contexts;
}

/**
 * A block that opens with a list, right under "the following properties are not implemented at
 * this moment:" at every place it stands in the document.
 */
function deniedBelow(doc: string, text: string): boolean {
  return listBelow(doc, text, deniesFollowingList);
}

/** A block that opens with a list, right under a line that `announces` at every place it stands. */
function listBelow(doc: string, text: string, announces: (line: string) => boolean): boolean {
  if (listAt(text, 0) === undefined) return false;
  let found = false;
  for (let at = doc.indexOf(text); at !== -1; at = doc.indexOf(text, at + 1)) {
    const above = lineAbove(doc, at);
    if (above === undefined || !announces(above)) return false;
    found = true;
  }
  return found;
}

/** "## Options", "### Constructor options", "Options:": a heading over a reference of options. */
function isOptionsHeading(line: string): boolean {
  return /^\s*(?:#{1,6}\s+)?(?:[A-Za-z]+\s+)?options:?\s*$/i.test(line);
}

/**
 * The heading above every place the text stands in the document, when they agree: an option
 * reference repeats "Type: `string` / Default: `false`" under many headings, and which one the
 * memory was taken from is then unknown.
 */
function onlyHeading(doc: string, text: string): SourceHeading | undefined {
  let found: SourceHeading | undefined;
  for (let at = doc.indexOf(text); at !== -1; at = doc.indexOf(text, at + 1)) {
    const heading = headingAbove(doc, at);
    if (!heading || (found && (found.name !== heading.name || found.call !== heading.call))) return undefined;
    found = heading;
  }
  return found;
}

function markdownSource(root: string, memory: PendingMemory): string | undefined {
  if (!memory.source) return undefined;
  const file = (JSON.parse(memory.source) as { file?: unknown }).file;
  if (typeof file !== 'string' || !MARKDOWN_RE.test(file)) return undefined;
  const resolved = resolveClaimPath(root, file);
  return resolved.inside ? resolved.relative : undefined;
}

/** The document as of the last commit at or before `time` (ms), or undefined if git has none. */
async function documentAt(root: string, file: string, time: number): Promise<string | undefined> {
  const commit = (
    await git(root, ['log', '-1', '--format=%H', `--before=@${Math.floor(time / 1000)}`, 'HEAD', '--', file])
  )?.trim();
  if (!commit) return undefined;
  return git(root, ['show', `${commit}:./${file}`]);
}

/**
 * Git's answer, or undefined when git ran and said no (not a repository, no such file then). Git
 * that could not run is asked once more, then fails the check: claims extracted without the
 * heading would be stored and never extracted again.
 */
async function git(root: string, args: string[]): Promise<string | undefined> {
  try {
    return await runGit(root, args);
  } catch {
    return runGit(root, args);
  }
}

function runGit(root: string, args: string[]): Promise<string | undefined> {
  return new Promise((resolve, reject) => {
    execFile(
      'git',
      args,
      { cwd: root, env: gitEnvironment(), windowsHide: true, maxBuffer: 64 << 20 },
      (error, stdout) => {
        if (!error) return resolve(stdout);
        if (typeof error.code === 'number' || error.code === 'ENOENT') return resolve(undefined);
        reject(new GitFailure(`git ${args[0] ?? ''} could not run: ${error.message}`));
      },
    );
  });
}
