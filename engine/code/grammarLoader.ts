import { readFileSync } from 'node:fs';
import path from 'node:path';
import type * as TreeSitter from 'web-tree-sitter';
import { EngramError } from '../errors';
import type { GrammarLanguage } from './languages';

/**
 * Required, not imported: web-tree-sitter's ES build locates its wasm through `import.meta.url`,
 * which a CommonJS bundle empties. Its CommonJS build takes the path from `locateFile`.
 */
// eslint-disable-next-line @typescript-eslint/no-require-imports
const runtime = require('web-tree-sitter') as typeof TreeSitter;

/** A language ready to parse: its grammar and its compiled definitions/imports/references query. */
export interface LoadedGrammar {
  language: GrammarLanguage;
  parser: TreeSitter.Parser;
  query: TreeSitter.Query;
}

/**
 * Loads grammars from one directory holding `web-tree-sitter.wasm`, `tree-sitter-<lang>.wasm` and
 * `<lang>.scm` (what scripts/copyGrammars.mjs lays out in grammars/). The host passes the
 * directory in; the engine never guesses it. Each grammar loads once, on first use.
 */
export class GrammarLoader {
  private static runtimeReady: Promise<void> | undefined;
  private readonly grammars = new Map<GrammarLanguage, Promise<LoadedGrammar>>();

  constructor(private readonly directory: string) {}

  load(language: GrammarLanguage): Promise<LoadedGrammar> {
    let grammar = this.grammars.get(language);
    if (!grammar) {
      grammar = this.loadUncached(language);
      this.grammars.set(language, grammar);
    }
    return grammar;
  }

  /** Frees the parsers and queries. The loader must not be used afterwards. */
  async dispose(): Promise<void> {
    for (const pending of this.grammars.values()) {
      const grammar = await pending.catch(() => undefined);
      grammar?.parser.delete();
      grammar?.query.delete();
    }
    this.grammars.clear();
  }

  private async loadUncached(language: GrammarLanguage): Promise<LoadedGrammar> {
    const runtimeWasm = path.join(this.directory, 'web-tree-sitter.wasm');
    // The runtime is process-wide (one wasm module), so it initialises once for every loader.
    GrammarLoader.runtimeReady ??= runtime.Parser.init({ locateFile: () => runtimeWasm });
    try {
      await GrammarLoader.runtimeReady;
      const wasm = path.join(this.directory, `tree-sitter-${language}.wasm`);
      const grammar = await runtime.Language.load(readFileSync(wasm));
      const query = new runtime.Query(
        grammar,
        readFileSync(path.join(this.directory, `${language}.scm`), 'utf8'),
      );
      const parser = new runtime.Parser();
      parser.setLanguage(grammar);
      return { language, parser, query };
    } catch (error) {
      throw new EngramError(
        'UNAVAILABLE',
        `cannot load the ${language} grammar from ${this.directory}: ${(error as Error).message}`,
      );
    }
  }
}
