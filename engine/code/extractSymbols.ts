import type { Node } from 'web-tree-sitter';
import { isExported } from './exportRules';
import type { LoadedGrammar } from './grammarLoader';
import { collectCaptures } from './queryCaptures';
import type { DefinitionCapture, ImportCapture, QueryCaptures } from './queryCaptures';
import { docOf, signatureOf } from './signature';
import type { CodeSymbol, SymbolKind } from './types';

/** What one parse of one file yields; imports are still unresolved specifiers. */
export interface ParsedSource {
  symbols: CodeSymbol[];
  imports: { specifier: string; line: number }[];
  references: Record<string, number>;
  hasErrors: boolean;
}

/** Per file, the most used identifiers are enough for a reference graph; the rest is noise. */
export const MAX_REFERENCES_PER_FILE = 200;

/** Definitions that other definitions can be members of. */
const CONTAINER_KINDS = new Set<SymbolKind>(['class', 'interface', 'enum', 'module']);

/**
 * Parses a source text and extracts its definitions, imports and references. Tree-sitter
 * recovers from syntax errors, so a broken file still yields every declaration that parsed.
 */
export function extractSymbols(grammar: LoadedGrammar, source: string): ParsedSource {
  const tree = grammar.parser.parse(source);
  if (!tree) return { symbols: [], imports: [], references: {}, hasErrors: true };
  try {
    const captures = collectCaptures(grammar.query, tree.rootNode);
    const symbols = buildSymbols(grammar, captures);
    return {
      symbols,
      imports: captures.imports.map(toImport),
      references: countReferences(captures),
      hasErrors: tree.rootNode.hasError,
    };
  } finally {
    tree.delete();
  }
}

interface Placed {
  capture: DefinitionCapture;
  symbol: CodeSymbol;
}

function buildSymbols(grammar: LoadedGrammar, captures: QueryCaptures): CodeSymbol[] {
  const placed: Placed[] = [];
  for (const capture of captures.definitions) {
    const enclosing = innermostContainer(placed, capture.node);
    const scope = innermostScope(captures, capture.node, enclosing?.capture.node);
    const containerName = capture.containerName ?? scope ?? enclosing?.symbol.name ?? null;
    let kind = capture.kind;
    // A function inside a class, impl block or receiver is a method (Python, Ruby, C++, Go, Rust).
    if (kind === 'function' && containerName !== null && enclosing?.symbol.kind !== 'module') kind = 'method';
    const name = capture.nameNode.text;
    const containerExported = enclosing?.symbol.exported ?? (scope !== null ? true : undefined);
    const symbol: CodeSymbol = {
      name,
      kind,
      signature: signatureOf(capture.node, kind),
      doc: docOf(capture.node),
      startLine: capture.node.startPosition.row + 1,
      endLine: capture.node.endPosition.row + 1,
      exported: isExported(grammar.language, {
        node: capture.node,
        name,
        kind,
        containerExported: enclosing?.symbol.kind === 'module' ? undefined : containerExported,
        exportNames: captures.exportNames,
      }),
      container: containerName,
    };
    // `const fs = require('fs')` is an import, already recorded as one.
    if (kind === 'constant' && /=\s*require\(/.test(symbol.signature)) continue;
    placed.push({ capture, symbol });
  }
  return placed.map((entry) => entry.symbol);
}

/** Definitions come sorted by start, outer first, so the last container that spans a node is the innermost. */
function innermostContainer(placed: Placed[], node: Node): Placed | undefined {
  for (let i = placed.length - 1; i >= 0; i--) {
    const candidate = placed[i];
    if (candidate && CONTAINER_KINDS.has(candidate.capture.kind) && contains(candidate.capture.node, node)) {
      return candidate;
    }
  }
  return undefined;
}

/** A scope (Rust impl) inside the innermost container definition, if any, names the container. */
function innermostScope(captures: QueryCaptures, node: Node, within: Node | undefined): string | null {
  let best: { node: Node; name: string } | undefined;
  for (const scope of captures.scopes) {
    if (!contains(scope.node, node) || (within && !contains(within, scope.node))) continue;
    if (!best || contains(best.node, scope.node)) best = scope;
  }
  return best?.name ?? null;
}

function contains(outer: Node, inner: Node): boolean {
  return outer.id !== inner.id && outer.startIndex <= inner.startIndex && inner.endIndex <= outer.endIndex;
}

function toImport(capture: ImportCapture): { specifier: string; line: number } {
  // Go and C quote their paths in the node itself; `<system>` headers keep their brackets.
  const text = capture.node.text.trim().replace(/^(["'`])(.*)\1$/s, '$2');
  const prefix = capture.flavour === 'relative' ? 'relative:' : capture.flavour === 'module' ? 'mod:' : '';
  return { specifier: `${prefix}${text}`, line: capture.node.startPosition.row + 1 };
}

function countReferences(captures: QueryCaptures): Record<string, number> {
  const definitionNames = new Set(captures.definitions.map((d) => d.nameNode.id));
  const counts = new Map<string, number>();
  for (const node of captures.references) {
    if (definitionNames.has(node.id)) continue;
    const name = node.text;
    // One- and two-letter names (i, x, db) say nothing about which file is meant.
    if (name.length < 3) continue;
    counts.set(name, (counts.get(name) ?? 0) + 1);
  }
  return Object.fromEntries(
    [...counts.entries()]
      .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
      .slice(0, MAX_REFERENCES_PER_FILE),
  );
}
