import type { Command } from 'commander';
import { EXPORT_FORMATS } from '../api/memoryParams';
import { absolute } from './cliArguments';
import type { Invoke } from './cliArguments';
import { EXIT } from './cliErrors';
import { mcpImportLines, rejectedEvery } from './importOutput';
import type { ImportResult } from './importOutput';

/**
 * `engram export` (every memory as JSONL, or Markdown for reading) and `engram import` (an Engram
 * export, or an MCP memory server's memory.jsonl). Paths are made absolute against `cwd`: the
 * engine may run in another process.
 */
export function registerTransferCommands(program: Command, invoke: Invoke, cwd: string): void {
  program
    .command('export')
    .argument('[file]', 'write here instead of stdout')
    .option('--format <format>', EXPORT_FORMATS.join(', '), 'jsonl')
    .description('export every memory (jsonl: every field and version; md: for reading)')
    .action((file: string | undefined, o: { format: string }) =>
      invoke(
        'export',
        { format: o.format, file: file === undefined ? undefined : absolute(cwd, file) },
        (r) => {
          const result = r as { text?: string; file?: string; bytes?: number };
          return result.text !== undefined
            ? result.text.replace(/\n$/, '')
            : `wrote ${result.bytes} bytes to ${result.file}`;
        },
      ),
    );

  program
    .command('import')
    .argument('<file>')
    .option('--from <format>', 'engram or mcp-memory', 'engram')
    .description(
      'import an Engram export or an MCP memory server memory.jsonl (mcp-memory: an observation that ' +
        'cannot be a memory, e.g. empty, is printed on its own line and the others imported; exit 1 ' +
        'when every observation was rejected)',
    )
    .action((file: string, o: { from: string }) =>
      invoke('import', { file: absolute(cwd, file), from: o.from }, (r) => {
        const result = r as ImportResult;
        if (result.from === 'engram') return `imported: ${JSON.stringify(result)}`;
        return { text: mcpImportLines(result), exit: rejectedEvery(result) ? EXIT.usage : EXIT.ok };
      }),
    );
}
