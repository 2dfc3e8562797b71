import { tokenCount } from '../retrieval/tokenCount';
import { extractSymbols } from './extractSymbols';
import { contentHash, countLines, looksBinary, looksMinified } from './fileContent';
import type { GrammarLoader } from './grammarLoader';
import { resolveImport } from './importResolver';
import { grammarFor, languageOf } from './languages';
import { manifestKindOf, readManifest } from './manifests/readManifest';
import type { ResolveContext } from './resolveContext';
import type { FileScanResult, SkipReason, WalkedFile } from './types';

export type FileOutcome =
  { kind: 'scanned'; result: FileScanResult } | { kind: 'skipped'; reason: SkipReason };

/**
 * Everything the index records about one file, from its bytes: hash, language, lines, and for
 * languages with a grammar its symbols, resolved imports and references; manifests are read with
 * their format's parser. Nothing here executes or evaluates file content.
 */
export async function scanFileContent(
  file: WalkedFile,
  content: Uint8Array,
  grammars: GrammarLoader,
  context: ResolveContext,
  /** Count the tokens of a parsed file (ScanJob.countTokens). */
  countTokens = false,
): Promise<FileOutcome> {
  if (looksBinary(content)) return { kind: 'skipped', reason: 'binary' };
  const text = Buffer.from(content.buffer, content.byteOffset, content.byteLength).toString('utf8');
  const grammar = grammarFor(file.path);
  if (grammar && looksMinified(text)) return { kind: 'skipped', reason: 'generated' };
  const manifestKind = manifestKindOf(file.path);
  const result: FileScanResult = {
    path: file.path,
    language: languageOf(file.path),
    contentHash: contentHash(content),
    size: file.size,
    mtimeMs: file.mtimeMs,
    lines: countLines(text),
    parsed: false,
    hasErrors: false,
    symbols: [],
    imports: [],
    references: {},
    manifest: manifestKind ? readManifest(manifestKind, text) : null,
  };
  if (!grammar) return { kind: 'scanned', result };
  const parsed = extractSymbols(await grammars.load(grammar), text);
  result.parsed = true;
  if (countTokens) result.tokens = tokenCount(text);
  result.hasErrors = parsed.hasErrors;
  result.symbols = parsed.symbols;
  result.references = parsed.references;
  result.imports = parsed.imports.map(({ specifier, line }) => ({
    specifier,
    line,
    resolved: resolveImport(context, grammar, file.path, specifier),
  }));
  return { kind: 'scanned', result };
}
