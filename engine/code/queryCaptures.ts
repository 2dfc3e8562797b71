import type { Node, Query } from 'web-tree-sitter';
import { SYMBOL_KINDS } from './types';
import type { SymbolKind } from './types';

/** A definition as the query found it, before signatures, docs and export rules. */
export interface DefinitionCapture {
  kind: SymbolKind;
  node: Node;
  nameNode: Node;
  /** A container named by the pattern itself (a Go method's receiver type). */
  containerName: string | null;
}

/** A node that contains definitions without being one (a Rust `impl` block). */
export interface ScopeCapture {
  node: Node;
  name: string;
}

export interface ImportCapture {
  node: Node;
  /** `relative` for Ruby's require_relative, `module` for Rust's `mod name;`. */
  flavour: 'plain' | 'relative' | 'module';
}

export interface QueryCaptures {
  definitions: DefinitionCapture[];
  scopes: ScopeCapture[];
  imports: ImportCapture[];
  references: Node[];
  /** Local names an export list (`export { a }`, `module.exports = { a }`) makes public. */
  exportNames: Set<string>;
}

const KIND_SET = new Set<string>(SYMBOL_KINDS);

/**
 * Runs a language's query (grammars/<lang>.scm) over a tree and sorts the captures by role. The
 * capture names are the contract with the query files; see their headers. When two patterns
 * capture the same name node (an arrow function is both a constant and a function), the pattern
 * written first wins, so the query files list the specific patterns before the general ones.
 */
export function collectCaptures(query: Query, root: Node): QueryCaptures {
  const result: QueryCaptures = {
    definitions: [],
    scopes: [],
    imports: [],
    references: [],
    exportNames: new Set(),
  };
  const definitionByName = new Map<number, { pattern: number; capture: DefinitionCapture }>();
  for (const match of query.matches(root)) {
    let definitionNode: Node | undefined;
    let kind: SymbolKind | undefined;
    let nameNode: Node | undefined;
    let containerName: string | null = null;
    let scopeNode: Node | undefined;
    let scopeName: string | undefined;
    for (const { name, node } of match.captures) {
      if (name.startsWith('definition.')) {
        const captured = name.slice('definition.'.length);
        if (KIND_SET.has(captured)) {
          kind = captured as SymbolKind;
          definitionNode = node;
        }
      } else if (name === 'name') nameNode = node;
      else if (name === 'container') containerName = node.text;
      else if (name === 'scope') scopeNode = node;
      else if (name === 'scope.name') scopeName = node.text;
      else if (name === 'reference') result.references.push(node);
      else if (name === 'import') result.imports.push({ node, flavour: 'plain' });
      else if (name === 'import.relative') result.imports.push({ node, flavour: 'relative' });
      else if (name === 'import.module') result.imports.push({ node, flavour: 'module' });
      else if (name === 'export.name') result.exportNames.add(node.text);
    }
    if (scopeNode && scopeName) result.scopes.push({ node: scopeNode, name: scopeName });
    if (definitionNode && kind && nameNode) {
      const previous = definitionByName.get(nameNode.id);
      if (!previous || previous.pattern > match.patternIndex) {
        definitionByName.set(nameNode.id, {
          pattern: match.patternIndex,
          capture: { kind, node: definitionNode, nameNode, containerName },
        });
      }
    }
  }
  result.definitions = [...definitionByName.values()]
    .map((entry) => entry.capture)
    .sort((a, b) => a.node.startIndex - b.node.startIndex || b.node.endIndex - a.node.endIndex);
  return result;
}
