import { readFile } from 'node:fs/promises';
import { looksBinary } from '../code/fileContent';
import { walkWorkspace } from '../code/walker';
import { codeOfLine, evidencePathspecs, isCodeEvidence, isGenerated } from './evidenceFiles';
import type { EvidenceScope } from './evidenceFiles';
import { grepNeedles } from './gitGrep';
import type { GitContext } from './gitHistory';
import { excludePathspecs, oversizedUntracked } from './oversizedFiles';
import { ROUTE_DEFINITION_ERE, routesIn } from './routeDefinitions';
import type { RouteDefinition } from './routeDefinitions';

const SEARCH_BATCH = 300;

/**
 * Searches the workspace's text now: through `git grep` when there is git (tracked and untracked,
 * ignored files and untracked files over the scanner's size limit left out), else by walking the
 * workspace with the scanner's ignore rules and size limit. Lockfiles and generated files are
 * never read either way.
 */
export class WorkspaceSearch {
  private texts: Promise<Map<string, string>> | undefined;
  private codeTexts: Map<string, string> | undefined;
  /** Listed once per check, like the texts. */
  private oversized: Promise<string[]> | undefined;

  constructor(
    private readonly root: string,
    private readonly git: GitContext | undefined,
  ) {}

  /**
   * Which needles occur, and in which files. `wholeWord` matches identifiers only as words; scope
   * `code` reads only files that can show a name exists, and only their code (evidenceFiles.ts).
   */
  async find(
    needles: readonly string[],
    wholeWord: boolean,
    scope: EvidenceScope = 'text',
  ): Promise<Map<string, Set<string>>> {
    if (needles.length === 0) return new Map();
    if (this.git)
      return grepNeedles(this.git, needles, { wholeWord, scope, skip: await this.skipped(this.git) });
    const texts = await this.fileTexts(scope);
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

  /** The routes the code defines (normalised path -> where and with which method); empty when none. */
  async routes(): Promise<Map<string, RouteDefinition[]>> {
    const routes = new Map<string, RouteDefinition[]>();
    const add = (file: string, text: string) => {
      for (const { route, method } of routesIn(text)) {
        const list = routes.get(route);
        if (list) list.push({ file, method });
        else routes.set(route, [{ file, method }]);
      }
    };
    if (this.git) {
      // Route definitions are looked for in any text but lockfiles and generated files.
      const skip = [...evidencePathspecs('text'), ...excludePathspecs(await this.skipped(this.git))];
      // No match is no error (git grep's exit code 1 says nothing on stderr); a failure fails.
      const out = await this.git.git.raw([
        'grep',
        '-z',
        '-o',
        '-I',
        '-i',
        '-E',
        '--untracked',
        '-e',
        ROUTE_DEFINITION_ERE,
        '--',
        ...skip,
      ]);
      for (const line of out.split('\n')) {
        const nul = line.indexOf('\0');
        if (nul !== -1) add(line.slice(0, nul), line.slice(nul + 1));
      }
      return routes;
    }
    for (const [file, text] of await this.fileTexts('text')) add(file, text);
    return routes;
  }

  private skipped(git: GitContext): Promise<string[]> {
    this.oversized ??= oversizedUntracked(git);
    return this.oversized;
  }

  /** The text files of the workspace a scope reads (code with comments and strings blanked), once per check, only without git. */
  private async fileTexts(scope: EvidenceScope): Promise<Map<string, string>> {
    const all = await this.allTexts();
    if (scope === 'text') return all;
    this.codeTexts ??= new Map(
      [...all]
        .filter(([file]) => isCodeEvidence(file))
        .map(([file, text]) => [
          file,
          text
            .split('\n')
            .map((line) => codeOfLine(file, line))
            .join('\n'),
        ]),
    );
    return this.codeTexts;
  }

  private allTexts(): Promise<Map<string, string>> {
    this.texts ??= (async () => {
      const { files } = await walkWorkspace({ root: this.root });
      const texts = new Map<string, string>();
      for (const file of files) {
        // Lockfiles and generated files are never evidence (evidenceFiles.ts): not even read.
        if (isGenerated(file.path)) continue;
        const content = await readFile(file.absolutePath).catch(() => undefined);
        if (content && !looksBinary(content)) texts.set(file.path, content.toString('utf8'));
      }
      return texts;
    })();
    return this.texts;
  }
}
