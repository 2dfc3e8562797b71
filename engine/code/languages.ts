import path from 'node:path';

/** Languages the scanner parses, by the grammar file they load (`tree-sitter-<grammar>.wasm`). */
export const GRAMMAR_LANGUAGES = [
  'typescript',
  'tsx',
  'javascript',
  'python',
  'go',
  'rust',
  'java',
  'c-sharp',
  'cpp',
  'ruby',
  'php',
  'bash',
] as const;
export type GrammarLanguage = (typeof GRAMMAR_LANGUAGES)[number];

const GRAMMAR_BY_EXTENSION: Record<string, GrammarLanguage> = {
  '.ts': 'typescript',
  '.mts': 'typescript',
  '.cts': 'typescript',
  '.tsx': 'tsx',
  '.js': 'javascript',
  '.jsx': 'javascript',
  '.mjs': 'javascript',
  '.cjs': 'javascript',
  '.py': 'python',
  '.pyi': 'python',
  '.go': 'go',
  '.rs': 'rust',
  '.java': 'java',
  '.cs': 'c-sharp',
  // C has no grammar of its own in @vscode/tree-sitter-wasm; the C++ grammar reads C well enough
  // for definitions and includes.
  '.c': 'cpp',
  '.h': 'cpp',
  '.cc': 'cpp',
  '.cpp': 'cpp',
  '.cxx': 'cpp',
  '.hh': 'cpp',
  '.hpp': 'cpp',
  '.hxx': 'cpp',
  '.rb': 'ruby',
  '.rake': 'ruby',
  '.php': 'php',
  '.sh': 'bash',
  '.bash': 'bash',
};

/** Files without a grammar still get a file-level record with a language name. */
const LANGUAGE_GUESS_BY_EXTENSION: Record<string, string> = {
  '.json': 'json',
  '.jsonc': 'json',
  '.yml': 'yaml',
  '.yaml': 'yaml',
  '.toml': 'toml',
  '.md': 'markdown',
  '.mdx': 'markdown',
  '.css': 'css',
  '.scss': 'scss',
  '.less': 'less',
  '.html': 'html',
  '.vue': 'vue',
  '.svelte': 'svelte',
  '.sql': 'sql',
  '.kt': 'kotlin',
  '.kts': 'kotlin',
  '.swift': 'swift',
  '.scala': 'scala',
  '.lua': 'lua',
  '.dart': 'dart',
  '.ex': 'elixir',
  '.exs': 'elixir',
  '.ps1': 'powershell',
  '.xml': 'xml',
  '.proto': 'protobuf',
  '.graphql': 'graphql',
  '.ini': 'ini',
  '.txt': 'text',
};

const LANGUAGE_GUESS_BY_NAME: Record<string, string> = {
  Dockerfile: 'dockerfile',
  Makefile: 'makefile',
  makefile: 'makefile',
  GNUmakefile: 'makefile',
  Gemfile: 'ruby',
  Rakefile: 'ruby',
};

/** The grammar for a file, by its extension, or undefined when there is none. */
export function grammarFor(filePath: string): GrammarLanguage | undefined {
  return GRAMMAR_BY_EXTENSION[path.extname(filePath).toLowerCase()];
}

/** The language of a file: its grammar's, else a guess from its name, else null. */
export function languageOf(filePath: string): string | null {
  const grammar = grammarFor(filePath);
  if (grammar) return grammar;
  const base = path.basename(filePath);
  if (base.startsWith('Dockerfile')) return 'dockerfile';
  return (
    LANGUAGE_GUESS_BY_NAME[base] ?? LANGUAGE_GUESS_BY_EXTENSION[path.extname(base).toLowerCase()] ?? null
  );
}
