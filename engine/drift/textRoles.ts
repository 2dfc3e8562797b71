import { SHELL_LANGUAGES, createScanContext } from '../extract/scanContext';
import type { FencedBlock } from '../extract/scanContext';

/**
 * What a stretch of a memory's text is, for deciding what it asserts: `prose` and `inline` code
 * in prose state things about the project; a `heading` of API docs declares; an `example` fence
 * is code written for the reader (its own variables, its own dependencies, calls rather than
 * declarations); a `shell` fence is commands to run; an `output` fence is what something printed.
 */
export type TextRole = 'prose' | 'inline' | 'heading' | 'example' | 'shell' | 'output';

export interface TextRoles {
  roleAt(position: number): TextRole;
  /** The fenced block around a position, if any. */
  fenceAt(position: number): FencedBlock | undefined;
  /** Every fenced block with its role. */
  fences: ReadonlyArray<{ fence: FencedBlock; role: TextRole }>;
}

const OUTPUT = new Set(['text', 'txt', 'plain', 'plaintext', 'log', 'output', 'none', 'diff']);
const COMMAND_LINE_RE =
  /^\s*(?:\$\s|>\s|(?:npm|npx|pnpm|yarn|bun|node|deno|git|cd|curl|docker|make|pip|python3?)\s)/;
const CODE_LINE_RE = /[=;{}()[\]]|=>|^\s*(?:import|export|const|let|var|function|class|return|def|from)\b/;
const PROMPT_LINE_RE = /^[ \t]*\$[ \t]/;
const HEADING_RE = /^[ ]{0,3}#{1,6}[ \t]/;

export function textRolesOf(text: string): TextRoles {
  const scan = createScanContext(text);
  const fences = scan.fences.map((fence) => ({ fence, role: fenceRole(text, fence) }));
  const inline = scan.inlineCode;
  const fenceAt = (position: number) =>
    fences.find(({ fence }) => position >= fence.start && position < fence.end);
  return {
    fences,
    fenceAt: (position) => fenceAt(position)?.fence,
    roleAt(position) {
      const fenced = fenceAt(position);
      const lineStart = text.lastIndexOf('\n', position - 1) + 1;
      // A terminal session: the prompted lines are commands, the rest what they printed.
      if (fenced?.role === 'output' && PROMPT_LINE_RE.test(text.slice(lineStart, lineStart + 16)))
        return 'shell';
      if (fenced) return fenced.role;
      if (HEADING_RE.test(text.slice(lineStart, lineStart + 8))) return 'heading';
      // Inline code ranges exclude the backticks; the claim's span starts inside them.
      if (inline.some(([start, end]) => position >= start - 1 && position < end + 1)) return 'inline';
      return 'prose';
    },
  };
}

/** A fence's role from its language, or from its lines when it names none. */
function fenceRole(text: string, fence: FencedBlock): TextRole {
  // An unlabelled fence is told by its lines below, not taken for a shell session.
  if (fence.language !== '' && SHELL_LANGUAGES.has(fence.language)) return 'shell';
  if (OUTPUT.has(fence.language)) return 'output';
  if (fence.language !== '') return 'example';
  const lines = text
    .slice(fence.start, fence.end)
    .split('\n')
    .filter((line) => line.trim() !== '');
  if (lines.length === 0) return 'output';
  if (lines.every((line) => COMMAND_LINE_RE.test(line))) return 'shell';
  const codeLike = lines.filter((line) => CODE_LINE_RE.test(line)).length;
  return codeLike * 2 >= lines.length ? 'example' : 'output';
}
