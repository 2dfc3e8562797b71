import { readFile } from 'node:fs/promises';
import { looksBinary } from '../code/fileContent';
import { walkWorkspace } from '../code/walker';
import { grepNeedles } from './gitHistory';
import type { GitContext } from './gitHistory';

/** Route definitions in code: `app.get('/x'`, `router.post("/x"`, `@Get('/x')`, `@app.route("/x")`. */
const ROUTE_DEFINITION_RE =
  /(?:\.|@)(?:get|post|put|delete|patch|all|use|route|head|options|on)\(\s*(?:\[\s*)?(?:['"][A-Z]+['"]\s*,\s*)?['"`](\/[^'"`\s]*)['"`]/gi;
const ROUTE_DEFINITION_ERE =
  '(\\.|@)(get|post|put|delete|patch|all|use|route|head|options|on)\\([[:space:]]*[\'"`]/[^\'"`[:space:]]*';
const SEARCH_BATCH = 300;

/**
 * Searches the workspace's text now: through `git grep` when there is git (tracked and untracked,
 * ignored files left out), else by walking the workspace with the scanner's ignore rules.
 */
export class WorkspaceSearch {
  private texts: Promise<Map<string, string>> | undefined;

  constructor(
    private readonly root: string,
    private readonly git: GitContext | undefined,
  ) {}

  /** Which needles occur, and in which files. `wholeWord` matches identifiers only as words. */
  async find(needles: readonly string[], wholeWord: boolean): Promise<Map<string, Set<string>>> {
    if (needles.length === 0) return new Map();
    if (this.git) return grepNeedles(this.git, needles, { wholeWord });
    const texts = await this.fileTexts();
    const found = new Map<string, Set<string>>();
    const unique = [...new Set(needles)];
    for (let i = 0; i < unique.length; i += SEARCH_BATCH) {
      const batch = unique.slice(i, i + SEARCH_BATCH).sort((a, b) => b.length - a.length);
      const alternatives = batch.map((n) => n.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|');
      const re = new RegExp(
        wholeWord ? `(?<![\\w$])(?:${alternatives})(?![\\w$])` : `(?:${alternatives})`,
        'g',
      );
      for (const [file, text] of texts) {
        for (const m of text.matchAll(re)) {
          let files = found.get(m[0]);
          if (!files) found.set(m[0], (files = new Set()));
          files.add(file);
        }
      }
    }
    return found;
  }

  /** The route paths the code defines, normalised (`/users/:p`); empty when it defines none. */
  async routes(): Promise<Set<string>> {
    const routes = new Set<string>();
    if (this.git) {
      const out = await this.git.git
        .raw(['grep', '-h', '-o', '-I', '-i', '-E', '--untracked', '-e', ROUTE_DEFINITION_ERE, '--', '.'])
        .catch(() => '');
      for (const line of out.split('\n')) {
        const path = /['"`](\/[^'"`\s]*)$/.exec(line)?.[1];
        if (path !== undefined) routes.add(normaliseRoute(path));
      }
      return routes;
    }
    for (const text of (await this.fileTexts()).values()) {
      for (const m of text.matchAll(ROUTE_DEFINITION_RE)) routes.add(normaliseRoute(m[1] as string));
    }
    return routes;
  }

  /** Every text file of the workspace, read once per check (only without git). */
  private fileTexts(): Promise<Map<string, string>> {
    this.texts ??= (async () => {
      const { files } = await walkWorkspace({ root: this.root });
      const texts = new Map<string, string>();
      for (const file of files) {
        const content = await readFile(file.absolutePath).catch(() => undefined);
        if (content && !looksBinary(content)) texts.set(file.path, content.toString('utf8'));
      }
      return texts;
    })();
    return this.texts;
  }
}

/** `/users/:id`, `/users/{id}`, `/users/<int:id>` and `/users/:id/` are one route. */
export function normaliseRoute(route: string): string {
  const normalised = route
    .replace(/:[A-Za-z_]\w*\??/g, ':p')
    .replace(/\{[^}]*\}/g, ':p')
    .replace(/<[^>]*>/g, ':p')
    .replace(/\/+$/, '');
  return normalised === '' ? '/' : normalised;
}
