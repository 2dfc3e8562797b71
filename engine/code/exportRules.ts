import type { Node } from 'web-tree-sitter';
import type { GrammarLanguage } from './languages';
import type { SymbolKind } from './types';

/** What the export rule of a language needs to know about one definition. */
export interface ExportQuestion {
  node: Node;
  name: string;
  kind: SymbolKind;
  /** The enclosing definition's export verdict, or undefined at the top level. */
  containerExported: boolean | undefined;
  /** Names a file-level export list makes public (`export { a }`, `module.exports = { a }`). */
  exportNames: ReadonlySet<string>;
}

type ExportRule = (question: ExportQuestion) => boolean;

/** Whether a definition is part of its module's public surface, by each language's convention. */
export function isExported(language: GrammarLanguage, question: ExportQuestion): boolean {
  return RULES[language](question);
}

const member = (q: ExportQuestion, ownVerdict: boolean) =>
  q.containerExported === undefined ? ownVerdict : q.containerExported && ownVerdict;

const modifierWords = (node: Node): string[] =>
  node.children
    .filter((child) => child !== null && /modifier/.test(child.type))
    .map((child) => child?.text ?? '');

const hasWord = (words: string[], word: string) =>
  words.some((text) => new RegExp(`\\b${word}\\b`).test(text));

/** ES modules and CommonJS: an `export` keyword, an export list, or a public member of an exported class. */
const ecmaScript: ExportRule = (q) => {
  if (q.containerExported !== undefined) {
    const isPrivate = hasWord(modifierWords(q.node), 'private') || q.name.startsWith('#');
    return q.containerExported && !isPrivate;
  }
  let wrapper = q.node.parent;
  while (wrapper && wrapper.type !== 'export_statement' && wrapper.type !== 'program')
    wrapper = wrapper.parent;
  return wrapper?.type === 'export_statement' || q.exportNames.has(q.name);
};

/** Python: no leading underscore (dunder methods are public protocol). */
const python: ExportRule = (q) => {
  const isPrivate = q.name.startsWith('_') && !(q.name.startsWith('__') && q.name.endsWith('__'));
  return member(q, !isPrivate);
};

/** Java and C#: an explicit `public`; members of an exported interface are public implicitly. */
const publicModifier: ExportRule = (q) => {
  if (q.kind === 'module') return true;
  const explicit = hasWord(modifierWords(q.node), 'public');
  return member(q, explicit || (q.containerExported === true && isInterfaceMember(q.node)));
};

function isInterfaceMember(node: Node): boolean {
  const body = node.parent;
  return body?.type === 'interface_body' || body?.parent?.type === 'interface_declaration';
}

/** C and C++: top-level (or namespaced) definitions that are not `static` are visible to other units. */
const cFamily: ExportRule = (q) => {
  const isStatic = q.node.children.some(
    (child) => child?.type === 'storage_class_specifier' && child.text === 'static',
  );
  return q.kind === 'module' || member(q, !isStatic);
};

const RULES: Record<GrammarLanguage, ExportRule> = {
  typescript: ecmaScript,
  tsx: ecmaScript,
  javascript: ecmaScript,
  python,
  // Go: an upper-case initial letter is the export rule of the language.
  go: (q) => /^\p{Lu}/u.test(q.name),
  // Rust: `pub` (or `pub(crate)`, still outside the module); items of a public trait are public.
  rust: (q) =>
    q.node.children.some((child) => child?.type === 'visibility_modifier') ||
    (q.containerExported === true && q.node.parent?.parent?.type === 'trait_item'),
  java: publicModifier,
  'c-sharp': publicModifier,
  cpp: cFamily,
  // Ruby: public unless marked otherwise; `private` sections are not tracked.
  ruby: (q) => member(q, true),
  // PHP: top-level functions and classes are global; members unless private or protected.
  php: (q) => {
    const words = modifierWords(q.node);
    return member(q, !hasWord(words, 'private') && !hasWord(words, 'protected'));
  },
  // Bash: every function and setting of a sourced script is visible to its caller.
  bash: () => true,
};
