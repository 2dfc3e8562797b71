import { GrammarLoader } from './grammarLoader';
import { grammarFor } from './languages';
import { ResolutionCache } from './resolutionCache';
import type { ScanJob } from './scanProtocol';

/**
 * What a long-lived scanner (the scan worker, or an inline CodeWorkspace) keeps between scans:
 * the loaded grammars and the resolution cache of the workspace it scans. Loading the grammars
 * and re-reading the configs cost more than parsing the one file an editor just saved.
 */
export class ScanSession {
  private loader: { directory: string; grammars: GrammarLoader } | undefined;
  private resolution: { key: string; cache: ResolutionCache } | undefined;

  async grammars(directory: string): Promise<GrammarLoader> {
    if (this.loader?.directory !== directory) {
      await this.loader?.grammars.dispose();
      this.loader = { directory, grammars: new GrammarLoader(directory) };
    }
    return this.loader.grammars;
  }

  /**
   * Starts loading, in the background, the grammars of the languages among `files`: after a full
   * scan that parsed nothing (an unchanged workspace), the first file the editor saves would
   * otherwise wait for its grammar (~100-300 ms). Failures surface when a scan needs the grammar.
   */
  preload(grammars: GrammarLoader, files: readonly { path: string }[]): void {
    const languages = new Set(files.map((f) => grammarFor(f.path)));
    for (const language of languages) if (language) void grammars.load(language).catch(() => undefined);
  }

  /** The cache for the job's workspace and walk rules; a different root or rule set starts afresh. */
  resolutionFor(job: ScanJob): ResolutionCache {
    const key = JSON.stringify([
      job.root,
      job.excludes ?? [],
      job.skipDirectories ?? null,
      job.maxFileBytes ?? null,
    ]);
    if (this.resolution?.key !== key) this.resolution = { key, cache: new ResolutionCache() };
    return this.resolution.cache;
  }

  async dispose(): Promise<void> {
    await this.loader?.grammars.dispose();
    this.loader = undefined;
    this.resolution = undefined;
  }
}
