import type { ExtractedClaim } from './claimTypes';

type Partial = Omit<ExtractedClaim, 'negated'>;

/** A line continuing a chain: `  .on('add', path => log(path))`. */
const CONTINUATION_RE = /^([ \t]*)\.([A-Za-z_$][\w$]*)[ \t]*\(/;
/** The chain's head alone on its line: `watcher`, `logger`. */
const HEAD_RE = /^[ \t]*([A-Za-z_$][\w$]*)[ \t]*$/;

/**
 * Members called in a chain whose head stands alone on the line above (`watcher` then
 * `.on('add', ...)` and `.on('change', ...)` on lines of their own): each is `watcher.on`, as if
 * written on one line, and the example's bindings then decide whose API it is. A chain on a call's
 * result (`fetch(url)` then `.then(...)`) has no name to hang the member on and is left alone.
 */
export function matchChainedMembers(text: string, out: Partial[]): void {
  if (!/\n[ \t]*\.[A-Za-z_$]/.test(text)) return;
  let head: string | undefined;
  let offset = 0;
  for (const line of text.split('\n')) {
    const link = CONTINUATION_RE.exec(line);
    if (link && head !== undefined) {
      const start = offset + (link[1] as string).length;
      const member = link[2] as string;
      out.push({ kind: 'symbol', subject: `${head}.${member}`, span: [start, start + 1 + member.length] });
    } else if (!link) head = HEAD_RE.exec(line)?.[1];
    offset += line.length + 1;
  }
}
