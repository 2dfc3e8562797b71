/**
 * What a memory that is Python source says about itself: the names it defines, their docstrings
 * and the language. The lexical index puts these in the tags column (see lexicalRow), beside the
 * whole text in the content column, so a query's words that name or describe a function outrank
 * the same words in its body (BM25F's field weighting: CoSQA's web queries mostly paraphrase the
 * function name or the docstring, measured in docs/benchmarks.md). The language is a label for
 * the same reason a file's extension is one: "python" in "python check if file exists" says which
 * code is wanted, and matched only in bodies it favoured code about Python itself (`to_python`).
 * Empty for anything that defines nothing.
 */
const DEFINITION = /^[ \t]*(?:async[ \t]+)?(def|class)[ \t]+([A-Za-z_]\w*)[ \t]*[(:]/gm;
/** The end of a definition's header: its colon, then the line's end (a comment may follow). */
const HEADER_END = /:[ \t]*(?:#[^\n]*)?\r?\n/;
/** A docstring opening: whitespace, an optional string prefix, three quotes. */
const DOCSTRING_OPEN = /^\s*[rRuU]?("""|''')/;
/** Longest header searched for its colon, in characters (a signature over many lines). */
const MAX_HEADER = 2000;
/** The most heading characters kept: names and docstrings, not a module's worth of them. */
const MAX_HEADING = 4000;

export function codeHeading(content: string): string {
  const parts: string[] = [];
  let length = 0;
  for (const match of content.matchAll(DEFINITION)) {
    if (length >= MAX_HEADING) break;
    const name = match[2]!;
    const afterName = match.index + match[0].length;
    const header = HEADER_END.exec(content.slice(afterName, afterName + MAX_HEADER));
    const docstring = header ? docstringAt(content, afterName + header.index + header[0].length) : '';
    const part = docstring ? `${name} ${docstring}` : name;
    parts.push(part);
    length += part.length;
  }
  if (parts.length === 0) return '';
  parts.push('python');
  return parts.join(' ').slice(0, MAX_HEADING);
}

/** The docstring that opens a body starting at `start`, or ''. */
function docstringAt(content: string, start: number): string {
  const open = DOCSTRING_OPEN.exec(content.slice(start, start + MAX_HEADER));
  if (!open) return '';
  const from = start + open[0].length;
  const end = content.indexOf(open[1]!, from);
  return end < 0 ? '' : content.slice(from, Math.min(end, from + MAX_HEADING));
}

/**
 * Whether `content` is Python source with a body: a definition whose header ends its line (a
 * scanned symbol's one-line summary, `def f(x) (function in a.py:3)`, is not). The entities found
 * in such a body are mostly the names it calls (`os.path.exists`, `self.stream.write`), already in
 * the content column: indexed again in the entities column, with that column's own (higher) idf,
 * they let a function that calls the query's words outrank one named and documented by them
 * (CoSQA tuning half, docs/benchmarks.md). So the lexical row of Python source has no entities.
 */
export function isPythonSource(content: string): boolean {
  for (const match of content.matchAll(DEFINITION)) {
    const afterName = match.index + match[0].length;
    if (HEADER_END.test(content.slice(afterName, afterName + MAX_HEADER))) return true;
  }
  return false;
}
