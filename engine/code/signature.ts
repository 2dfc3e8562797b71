import type { Node } from 'web-tree-sitter';
import type { SymbolKind } from './types';

/** Signatures are headers, not code: long ones are cut here. */
export const SIGNATURE_MAX_CHARS = 160;
const DOC_MAX_CHARS = 160;

/** Wrappers whose comments document the declaration inside them. */
const WRAPPERS = new Set(['export_statement', 'decorated_definition', 'ambient_declaration']);

/**
 * The declaration header: the definition's text up to its body (or the value of a constant),
 * whitespace collapsed and capped, e.g. `export async function createLimiter(limit: number): Promise<X>`.
 */
export function signatureOf(definition: Node, kind: SymbolKind): string {
  // A type alias or constant is all header: its value is what it says.
  const body = kind === 'type' || kind === 'constant' ? null : findBody(definition);
  let end = body ? body.startIndex : definition.endIndex;
  // A comment between the header and the body (Python, Ruby) is not part of the signature.
  for (const child of definition.children) {
    if (child?.type.includes('comment') && child.startIndex > definition.startIndex) {
      end = Math.min(end, child.startIndex);
    }
  }
  const text = definition.text.slice(0, end - definition.startIndex);
  // The punctuation that opens a body (`{`, Python's `:`) or ends a statement is not header.
  return collapse(text.replace(/[\s{:;]+$/, ''));
}

/**
 * The body to cut the header at: the definition's own `body` field, or, for a binding that
 * holds a function or class, that value's body. Constants without a body keep their value
 * (capped), which is usually the useful part (`MAX_ITEMS = 50`).
 */
function findBody(definition: Node): Node | null {
  const own = definition.childForFieldName('body');
  if (own) return own;
  for (const child of definition.namedChildren) {
    if (!child) continue;
    const nested =
      child.childForFieldName('body') ?? child.childForFieldName('value')?.childForFieldName('body');
    if (nested) return nested;
    // Go: `type Cart struct { ... }` keeps its fields in the type, not in a body field.
    const goType = child.childForFieldName('type');
    if (goType && (goType.type === 'struct_type' || goType.type === 'interface_type')) {
      return goType.namedChildren[0] ?? null;
    }
  }
  return null;
}

function collapse(text: string): string {
  const single = text
    .replace(/\s+/g, ' ')
    .replace(/([([]) /g, '$1')
    .replace(/,? ([)\]])/g, '$1')
    .trim();
  if (single.length <= SIGNATURE_MAX_CHARS) return single;
  // Long type parameters go first: the parameter list is what a reader (and a drift check of a
  // call) needs, `<TReq extends http.IncomingMessage = http.IncomingMessage, ...>` rarely is.
  const shorter = withoutTypeParameters(single);
  return shorter.length <= SIGNATURE_MAX_CHARS ? shorter : `${shorter.slice(0, SIGNATURE_MAX_CHARS - 1)}…`;
}

/**
 * `f<T extends X = Y, U = () => void>(a: T)` -> `f<…>(a: T)`: the first `<...>` after a name and
 * before any `(`, matched by depth (an arrow's `>` closes nothing), when a `(` follows it.
 */
function withoutTypeParameters(header: string): string {
  const open = header.indexOf('<');
  const paren = header.indexOf('(');
  if (open <= 0 || (paren !== -1 && paren < open) || !/[\w$]/.test(header[open - 1] ?? '')) return header;
  let depth = 0;
  for (let i = open; i < header.length; i++) {
    const c = header[i];
    if (c === '<') depth++;
    else if (c === '>' && header[i - 1] !== '=') depth--;
    if (depth === 0) {
      const rest = header.slice(i + 1);
      return /^\s?\(/.test(rest) ? `${header.slice(0, open)}<…>${rest.replace(/^\s/, '')}` : header;
    }
  }
  return header;
}

/**
 * The first meaningful line of the documentation: the comments right above the declaration (or
 * above the `export`/decorator wrapping it), else a Python docstring.
 */
export function docOf(definition: Node): string | null {
  const anchor = definition.parent && WRAPPERS.has(definition.parent.type) ? definition.parent : definition;
  const comments: Node[] = [];
  let line = anchor.startPosition.row;
  for (let sibling = anchor.previousNamedSibling; sibling; sibling = sibling.previousNamedSibling) {
    if (!sibling.type.includes('comment') || sibling.endPosition.row < line - 1) break;
    comments.unshift(sibling);
    line = sibling.startPosition.row;
  }
  for (const comment of comments) {
    const first = firstCommentLine(comment.text);
    if (first) return first;
  }
  return docstringOf(definition);
}

function docstringOf(definition: Node): string | null {
  const body = definition.childForFieldName('body');
  const first = body?.namedChildren[0];
  if (first?.type !== 'expression_statement') return null;
  const literal = first.namedChildren[0];
  return literal?.type === 'string' ? firstCommentLine(literal.text) : null;
}

/** Strips comment and docstring markers (`/**`, `*`, `///`, `#`, `"""`, `<summary>`) and takes the first line with words. */
export function firstCommentLine(text: string): string | null {
  for (const raw of text.split('\n')) {
    const line = raw
      .trim()
      .replace(/^(\/\*+|\*+\/?|\/\/[/!]?|#+|"""|'''|<!--)/, '')
      .replace(/(\*\/|"""|'''|-->)$/, '')
      .replace(/<\/?[a-zA-Z][^>]*>/g, '')
      .trim();
    if (/[\p{L}\p{N}]/u.test(line))
      return line.length <= DOC_MAX_CHARS ? line : `${line.slice(0, DOC_MAX_CHARS - 1)}…`;
  }
  return null;
}
