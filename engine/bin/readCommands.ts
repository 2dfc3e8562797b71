import type { Command } from 'commander';
import { invalidInput } from '../errors';
import { LAYERS } from '../memory/types';
import type { Memory, MemoryVersion } from '../memory/types';
import type { RecallResult } from '../retrieval/recall';
import { levelledText } from '../retrieval/contextLevels';
import type { LevelledContext } from '../retrieval/contextLevels';
import { parseNumber } from './cliArguments';
import type { Invoke } from './cliArguments';
import { listOrNone, memoryLine, renderRecall, versionLine } from './cliOutput';
import { hookClientOption, primedForHook } from './hookOutput';
import type { HookClient } from './hookOutput';

/** The commands that read memories: history, as-of, entities, related, recall and context. */
export function registerReadCommands(program: Command, invoke: Invoke): void {
  program
    .command('history')
    .argument('<id>')
    .description('every version of a memory and its notes')
    .action((id: string) =>
      invoke('history', { id }, (r) => {
        const { versions, annotations } = r as {
          versions: MemoryVersion[];
          annotations: Array<{ createdAt: number; text: string }>;
        };
        return [
          ...versions.map(versionLine),
          ...annotations.map((a) => `note ${new Date(a.createdAt).toISOString()}: ${a.text}`),
        ].join('\n');
      }),
    );

  program
    .command('as-of')
    .argument('<time>', 'ISO 8601 time')
    .option('--valid', 'what was true then (valid time) instead of what Engram knew then')
    .option('--layer <layer>', LAYERS.join(', '))
    .option('--limit <n>', 'at most this many', parseNumber, 100)
    .description('what Engram knew at a time')
    .action((time: string, o: { valid?: boolean; layer?: string; limit: number }) =>
      invoke('asOf', { time, axis: o.valid ? 'valid' : 'transaction', layer: o.layer, limit: o.limit }, (r) =>
        listOrNone((r as MemoryVersion[]).map(memoryLine)),
      ),
    );

  program
    .command('entities')
    .argument('[query]')
    .option('--limit <n>', 'at most this many', parseNumber, 50)
    .description('entities named in memories')
    .action((query: string | undefined, o: { limit: number }) =>
      invoke('entities', { query, limit: o.limit }, (r) =>
        listOrNone(
          (r as Array<{ name: string; type: string; memoryCount: number }>).map(
            (e) => `${e.name}  (${e.type}, ${e.memoryCount} memories)`,
          ),
        ),
      ),
    );

  program
    .command('related')
    .argument('<entity>')
    .option('--hops <n>', 'how far to walk (1-4)', parseNumber, 1)
    .description('entities and memories connected to an entity')
    .action((entity: string, o: { hops: number }) =>
      invoke('related', { entity, hops: o.hops }, (r) => {
        const result = r as {
          entity: { name: string };
          related: Array<{ name: string; type: string; hops: number; score: number }>;
          memories: Array<{ memory: Memory }>;
        };
        return [
          `${result.entity.name}:`,
          ...result.related.map(
            (e) => `  ${e.name} (${e.type}, ${e.hops} hop${e.hops > 1 ? 's' : ''}, ${e.score.toFixed(2)})`,
          ),
          'memories:',
          ...result.memories.map((m) => `  ${memoryLine(m.memory)}`),
        ].join('\n');
      }),
    );

  program
    .command('recall')
    .argument('<query...>')
    .option('-k <n>', 'how many', parseNumber, 10)
    .option('--layer <layer>', LAYERS.join(', '))
    .option('--explain', 'show per-channel ranks, boosts and dropped candidates')
    .option('--as-of <time>', 'recall what Engram knew at this time (ISO 8601)')
    .option('--channels <list>', 'comma-separated subset of lexical,dense,graph,ppr')
    .option('--include-inactive', 'also invalidated and superseded memories')
    .option('--detail', 'in place of a consolidated memory, its superseded members that match')
    .option('--no-detail', 'consolidated memories only (by default, members that rank above one replace it)')
    .description('find memories (hybrid retrieval)')
    .action(
      (
        words: string[],
        o: {
          k: number;
          layer?: string;
          explain?: boolean;
          asOf?: string;
          channels?: string;
          includeInactive?: boolean;
          detail?: boolean;
        },
      ) =>
        invoke(
          'recall',
          {
            query: words.join(' '),
            k: o.k,
            layer: o.layer,
            explain: o.explain === true,
            asOf: o.asOf,
            channels: o.channels?.split(',').map((c) => c.trim()),
            includeInactive: o.includeInactive === true,
            detail: o.detail,
          },
          (r) => renderRecall(r as RecallResult),
        ),
    );

  program
    .command('context')
    .argument('[query...]')
    .option('--budget <tokens>', 'token budget of the block', parseNumber, 1500)
    .option('--conversation <id>', 'skip what this conversation already received (default: --session)')
    .option(
      '--prime',
      'the block a fresh session starts with: pinned memories, last sessions, open threads, decisions, drift',
    )
    .option(
      '--levels',
      'graduated: L0 pinned, L1 layer summaries, L2 entity cards, L3 search hits (query optional), each with its tokens',
    )
    .option(
      '--from-hook',
      "run by an agent's session-start hook: print the block only, nothing when it is empty",
    )
    .addOption(hookClientOption())
    .description('the memory block for an agent prompt: pinned first, then relevant, within a token budget')
    .action(
      (
        words: string[],
        o: {
          budget: number;
          conversation?: string;
          prime?: boolean;
          fromHook?: boolean;
          levels?: boolean;
          hookClient?: HookClient;
        },
      ) => {
        if (o.levels === true && (o.prime === true || o.fromHook === true))
          throw invalidInput('--levels and --prime build different blocks; give one of them');
        if (o.levels === true)
          return invoke(
            'contextLevels',
            { query: words.length === 0 ? undefined : words.join(' '), budget: o.budget },
            (r) => levelledText(r as LevelledContext),
          );
        if (o.prime === true || o.fromHook === true) {
          return invoke('prime', { budget: o.budget, conversation: o.conversation }, (r) => {
            const block = r as { text: string; tokens: number; budget: number; omitted: number };
            if (o.fromHook === true) return primedForHook(block.text, o.hookClient);
            return `${block.text || '(nothing to prime with yet)'}\n\n(${block.tokens} of ${block.budget} tokens; ${block.omitted} lines left out)`;
          });
        }
        if (words.length === 0)
          throw invalidInput('give a query, or --prime for the block a fresh session starts with');
        return invoke(
          'context',
          { query: words.join(' '), budget: o.budget, conversation: o.conversation },
          (r) => {
            const block = r as { text: string; tokens: number; budget: number; skipped: unknown[] };
            return `${block.text || '(no memories)'}\n\n(${block.tokens} of ${block.budget} tokens; ${block.skipped.length} skipped)`;
          },
        );
      },
    );
}
