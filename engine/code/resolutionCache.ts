import { promises as fsp } from 'node:fs';
import { manifestKindOf, readManifest } from './manifests/readManifest';
import { createResolveContext } from './resolveContext';
import type { ConfigFile, ResolveContext } from './resolveContext';
import { scopeTest } from './scanScopes';
import type { ManifestKind, WalkedFile } from './types';

/** Config files that change how imports resolve. */
export const RESOLUTION_CONFIG_KINDS: readonly ManifestKind[] = ['tsconfig', 'go.mod', 'cargo'];

export function isResolutionConfig(relativePath: string): boolean {
  const kind = manifestKindOf(relativePath);
  return kind !== undefined && RESOLUTION_CONFIG_KINDS.includes(kind);
}

interface CachedConfig {
  size: number;
  mtimeMs: number;
  config: ConfigFile;
}

/**
 * What import resolution knows about one workspace, kept between scans by a long-lived scanner:
 * the walked file list, the parsed tsconfig/go.mod/Cargo.toml files and the context built from
 * them. A config is read again only when its size or mtime moved (targeted scans walk the indexed
 * configs too, for that); the context is rebuilt only when the file list or a config changed. Re-reading ~100 tsconfigs and
 * rebuilding the context for 7,500 files cost a large share of a one-file rescan.
 */
export class ResolutionCache {
  private files = new Set<string>();
  private readonly configs = new Map<string, CachedConfig>();
  private context: ResolveContext | undefined;
  private primed = false;

  /** True once a full walk has told the cache the whole file list. */
  get isPrimed(): boolean {
    return this.primed;
  }

  /** After a full walk: its files are the workspace. */
  async replaceAll(walked: readonly WalkedFile[]): Promise<void> {
    const paths = new Set(walked.map((f) => f.path));
    const sameFiles = paths.size === this.files.size && [...paths].every((p) => this.files.has(p));
    if (!sameFiles) {
      this.files = paths;
      this.context = undefined;
    }
    for (const cached of this.configs.keys()) if (!paths.has(cached)) this.dropConfig(cached);
    await this.refreshConfigs(walked);
    this.primed = true;
  }

  /**
   * After a walk of some scopes only (see scanScopes): what the walk found there replaces what
   * the cache held there.
   */
  async replaceScopes(scopes: readonly string[], walked: readonly WalkedFile[]): Promise<void> {
    const found = new Set(walked.map((f) => f.path));
    // Files that were in a scope and were not found again are gone. Scopes that name files need a
    // lookup each; only a directory scope needs a pass over every file.
    const directories = scopes.filter((s) => !this.files.has(s) && !found.has(s));
    const candidates = directories.length > 0 ? [...this.files] : scopes.filter((s) => this.files.has(s));
    const inScopes = scopeTest(scopes);
    for (const file of candidates) {
      if (!found.has(file) && inScopes(file)) {
        this.files.delete(file);
        this.dropConfig(file);
        this.context = undefined;
      }
    }
    for (const file of found) {
      if (this.files.has(file)) continue;
      this.files.add(file);
      this.context = undefined;
    }
    await this.refreshConfigs(walked);
  }

  /** The context and the configs it was built from, built now if anything changed. */
  current(): { context: ResolveContext; configs: ConfigFile[] } {
    const configs = [...this.configs.values()].map((c) => c.config);
    this.context ??= createResolveContext(this.files, configs);
    return { context: this.context, configs };
  }

  private async refreshConfigs(files: readonly WalkedFile[]): Promise<void> {
    for (const file of files) {
      const kind = manifestKindOf(file.path);
      if (!kind || !RESOLUTION_CONFIG_KINDS.includes(kind)) continue;
      const cached = this.configs.get(file.path);
      if (cached && cached.size === file.size && cached.mtimeMs === file.mtimeMs) continue;
      const text = await fsp.readFile(file.absolutePath, 'utf8').catch(() => undefined);
      if (text === undefined) this.dropConfig(file.path);
      else {
        const config = { path: file.path, manifest: readManifest(kind, text) };
        this.configs.set(file.path, {
          size: file.size,
          mtimeMs: file.mtimeMs,
          config,
        });
        this.context = undefined;
      }
    }
  }

  private dropConfig(file: string): void {
    if (this.configs.delete(file)) this.context = undefined;
  }
}
