/** The vocabulary of the code index: what the scanner extracts and the index stores. */

export const SYMBOL_KINDS = [
  'class',
  'interface',
  'function',
  'method',
  'type',
  'enum',
  'constant',
  'module',
] as const;
export type SymbolKind = (typeof SYMBOL_KINDS)[number];

/** One definition in a file. Lines are 1-based and inclusive. */
export interface CodeSymbol {
  name: string;
  kind: SymbolKind;
  /** The declaration header up to its body, whitespace collapsed and capped. */
  signature: string;
  /** The first line of the doc comment or docstring, if any. */
  doc: string | null;
  startLine: number;
  endLine: number;
  exported: boolean;
  /** The enclosing class, interface, impl type or module, for members. */
  container: string | null;
}

export interface CodeImport {
  /** The specifier as written (`./util`, `app.db`, `crate::store::Store`, `<vector>`). */
  specifier: string;
  /** The workspace file it names (root-relative, `/`-separated), when one could be found. */
  resolved: string | null;
  line: number;
}

/** What a file's manifest or config says (package.json, go.mod, a CI workflow, ...). */
export interface ManifestRecord {
  kind: ManifestKind;
  /** The package, module or project name, when the manifest has one. */
  name: string | null;
  /** Kind-specific facts; see engine/code/manifests/ for each shape. */
  data: ManifestData;
}

export type ManifestKind =
  'package.json' | 'tsconfig' | 'pyproject' | 'go.mod' | 'cargo' | 'makefile' | 'dockerfile' | 'ci-workflow';

export interface ManifestData {
  /** Script or target name -> command (npm scripts, pyproject scripts, Makefile targets). */
  scripts?: Record<string, string>;
  /** Dependency name -> version requirement. */
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
  /** tsconfig `compilerOptions.baseUrl` and `paths`. */
  baseUrl?: string;
  paths?: Record<string, string[]>;
  /** Dockerfile base images and exposed ports. */
  baseImages?: string[];
  exposedPorts?: string[];
  /** CI workflow job ids. */
  jobs?: string[];
  /** Set when the file could not be read as its format: what was wrong. */
  error?: string;
}

/** One workspace file as the walker found it. */
export interface WalkedFile {
  /** Root-relative, `/`-separated. */
  path: string;
  absolutePath: string;
  size: number;
  mtimeMs: number;
}

/** Everything the scanner learned about one file: the unit written to the index in one step. */
export interface FileScanResult {
  path: string;
  /** The language id (`typescript`, `python`, ...) or a guess for files without a grammar. */
  language: string | null;
  contentHash: string;
  size: number;
  mtimeMs: number;
  lines: number;
  /** True when the language has a grammar and the file was parsed. */
  parsed: boolean;
  /** True when tree-sitter found syntax errors: what parsed is still recorded. */
  hasErrors: boolean;
  symbols: CodeSymbol[];
  imports: CodeImport[];
  /** Identifiers this file uses, with counts, most used first, capped. */
  references: Record<string, number>;
  manifest: ManifestRecord | null;
  /** Tokens (o200k) of a parsed file's text, when the scan counts them (ScanJob.countTokens). */
  tokens?: number;
}

/** Why the walker left a file out. */
export type SkipReason = 'ignored' | 'binary' | 'too-large' | 'generated' | 'symlink-outside' | 'unreadable';

export interface RenamedFile {
  from: string;
  to: string;
}

/** What a scan found compared with the index it started from. Paths are root-relative. */
export interface ChangeSet {
  added: string[];
  changed: string[];
  deleted: string[];
  renamed: RenamedFile[];
  unchanged: number;
}
