import { z } from 'zod';
import { defineTool } from '../toolDefinition';
import type { ToolDefinition } from '../toolDefinition';

/**
 * Sharing writes a file the team will review and commit: the agent first sees the file and asks
 * the user; only a second call with `confirm: true` writes it.
 */
const teamShareTool = defineTool({
  name: 'memory_team_share',
  title: 'Share a memory with the team',
  description:
    'Share a memory with the team as a file under .engram/team/ that the user commits with git. Without confirm it only shows the file it would write: show it to the user, and call again with confirm: true only after the user agreed. Sharing a shared memory again writes a new version of its file if the memory changed.',
  group: 'memory',
  profiles: ['full'],
  // Writes a file (not hidden, not destructive); a repeat writes the same bytes.
  hints: { readOnlyHint: false, destructiveHint: false, idempotentHint: true },
  input: () =>
    z.object({
      id: z.string().describe('memory id, or a unique prefix of 6+ characters'),
      confirm: z.boolean().optional().describe('true once the user agreed to share it; otherwise a preview'),
    }),
  output: () =>
    z.object({
      outcome: z.enum(['written', 'unchanged', 'preview']),
      teamId: z.string(),
      memoryId: z.string(),
      file: z.string(),
      version: z.number(),
      text: z.string(),
    }),
  async run({ id, confirm }, context) {
    const result = await context.call('teamShare', { id, dryRun: confirm !== true });
    const text =
      result.outcome === 'preview'
        ? `Would write ${result.file} (version ${result.version}):\n\n${result.text}\nAsk the user; call memory_team_share again with confirm: true to write it.`
        : result.outcome === 'unchanged'
          ? `${result.file} already says this (version ${result.version}).`
          : `Wrote ${result.file} (version ${result.version}); the user commits it to share it.`;
    return { structured: result, text };
  },
});

export const TEAM_TOOLS: readonly ToolDefinition[] = [teamShareTool];
