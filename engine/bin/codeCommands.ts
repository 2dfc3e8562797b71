import type { Command } from 'commander';
import type { FileHit, SymbolHit } from '../code/codeQueries';
import type { MethodResult } from '../api/methods';
import type { RepoMap } from '../code/repoMap';
import { absolute, parseNumber } from './cliArguments';
import type { Invoke } from './cliArguments';
import { locateText } from '../code/search/locateText';
import { renderFiles, renderMap, renderScan, renderSymbols } from './codeOutput';

/** The codebase layer's commands: `scan`, `symbols`, `files`, `locate`, `map`. */
export function registerCodeCommands(program: Command, invoke: Invoke, cwd: string): void {
  program
    .command('scan')
    .argument('[dir]', 'workspace to scan (default: the current one)')
    .option('--no-tokens', 'skip counting memory and source tokens (faster)')
    .description('scan the workspace into the code index and codebase memories')
    .action((dir: string | undefined, o: { tokens: boolean }) =>
      invoke(
        'scan',
        { tokens: o.tokens },
        (r) => renderScan(r as MethodResult<'scan'>),
        dir && absolute(cwd, dir),
      ),
    );

  program
    .command('symbols')
    .argument('<query>', 'part of a symbol name, or Container.name')
    .option('--limit <n>', 'at most this many', parseNumber)
    .description('find classes, functions, methods and types in the code index')
    .action((query: string, o: { limit?: number }) =>
      invoke('symbols', { query, limit: o.limit }, (r) => renderSymbols(r as SymbolHit[])),
    );

  program
    .command('files')
    .argument('<query>', 'part of a path')
    .option('--limit <n>', 'at most this many', parseNumber)
    .description('find files in the code index')
    .action((query: string, o: { limit?: number }) =>
      invoke('files', { query, limit: o.limit }, (r) => renderFiles(r as FileHit[])),
    );

  program
    .command('locate')
    .argument('<query>', 'a question or an issue report (up to 32,000 characters)')
    .option('--limit <n>', 'at most this many files', parseNumber)
    .description('the files to look at for a question or an issue, each with why it ranks')
    .action((query: string, o: { limit?: number }) =>
      invoke('locate', { query, limit: o.limit }, (r) => locateText(r as MethodResult<'locate'>)),
    );

  program
    .command('map')
    .option('--focus <file...>', 'files to centre the map on (e.g. the ones being edited)')
    .option('--query <text>', 'a question whose identifiers and paths also centre the map')
    .option('--budget <tokens>', 'token budget of the rendered map', parseNumber)
    .description('the most important files and signatures of the workspace, within a token budget')
    .action((o: { focus?: string[]; query?: string; budget?: number }) =>
      invoke('map', { focus: o.focus ?? [], query: o.query, budget: o.budget }, (r) =>
        renderMap(r as RepoMap),
      ),
    );
}
