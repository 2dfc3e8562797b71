import * as vscode from 'vscode';
import type { EngineConnection } from '../engineConnection';
import type { DriftState } from '../driftState';
import { describeEvidence } from '../driftReport';
import { readSettings } from '../settings';
import { shortId } from '../memoryPresentation';
import { KINDS, markedContent } from '../../engine/index';

/** Tool names as contributed in package.json (`contributes.languageModelTools`). */
export const TOOL_NAMES = {
  recall: 'engram_recall',
  remember: 'engram_remember',
  context: 'engram_context',
  drift: 'engram_drift_check',
} as const;

/** Agent-mode writes are recorded with agent trust under this name. */
const TOOL_ACTOR = { agent: 'vscode-agent' };

interface RecallInput {
  query: string;
  limit?: number;
}
interface RememberInput {
  content: string;
  kind?: string;
  tags?: string[];
}
interface ContextInput {
  query: string;
  budget?: number;
}

const text = (value: string) => new vscode.LanguageModelToolResult([new vscode.LanguageModelTextPart(value)]);

/** A tool that answers errors as text, so an agent's turn never fails because memory did. */
function tool<T>(
  log: vscode.LogOutputChannel,
  name: string,
  invoke: (input: T, token: vscode.CancellationToken) => Promise<vscode.LanguageModelToolResult>,
  prepare?: vscode.LanguageModelTool<T>['prepareInvocation'],
): vscode.LanguageModelTool<T> {
  return {
    async invoke(options, token) {
      try {
        return await invoke(options.input, token);
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        log.error(`${name}: ${message}`);
        return text(`Engram ${name} failed: ${message}`);
      }
    },
    ...(prepare ? { prepareInvocation: prepare } : {}),
  };
}

export function registerLanguageModelTools(
  engine: EngineConnection,
  drift: DriftState,
  log: vscode.LogOutputChannel,
): vscode.Disposable[] {
  return [
    vscode.lm.registerTool<RecallInput>(
      TOOL_NAMES.recall,
      tool(
        log,
        'recall',
        async (input) => {
          const { hits } = await engine.call(
            'recall',
            { query: input.query, k: Math.min(Math.max(input.limit ?? 8, 1), 30) },
            TOOL_ACTOR,
          );
          // Answered from the replica of the team scope while the server is down: the agent is told.
          const stale = await engine.staleNote();
          const lines =
            hits.length === 0
              ? [`No memory matches "${input.query}".`]
              : hits.map(
                  (h) =>
                    `[${shortId(h.memory.id)}] (${h.memory.layer}/${h.memory.kind}) ${markedContent(h.memory, h.memory.content)}`,
                );
          return text([...lines, ...(stale ? [stale] : [])].join('\n'));
        },
        (options) => ({ invocationMessage: `Recalling "${options.input.query}"` }),
      ),
    ),
    vscode.lm.registerTool<RememberInput>(
      TOOL_NAMES.remember,
      tool(
        log,
        'remember',
        async (input) => {
          const kind = KINDS.find((known) => known === input.kind) ?? 'note';
          const result = await engine.call(
            'remember',
            { content: input.content, kind, tags: input.tags },
            TOOL_ACTOR,
          );
          return text(`${result.outcome}: [${shortId(result.memory.id)}] ${result.memory.content}`);
        },
        // A write: the user confirms what the agent stores in the project memory.
        (options) => ({
          invocationMessage: 'Remembering',
          confirmationMessages: {
            title: 'Remember in the project memory?',
            message: new vscode.MarkdownString().appendText(options.input.content),
          },
        }),
      ),
    ),
    vscode.lm.registerTool<ContextInput>(
      TOOL_NAMES.context,
      tool(
        log,
        'context',
        async (input) => {
          const budget = input.budget ?? readSettings().contextBudget;
          const block = await engine.call(
            'context',
            { query: input.query, budget: Math.min(Math.max(Math.round(budget), 50), 200_000) },
            TOOL_ACTOR,
          );
          return text(block.text || 'No memory is relevant to this yet.');
        },
        (options) => ({ invocationMessage: `Building context for "${options.input.query}"` }),
      ),
    ),
    vscode.lm.registerTool<Record<string, never>>(
      TOOL_NAMES.drift,
      tool(
        log,
        'drift check',
        async () => {
          const report = await drift.check();
          const findings = report.findings;
          if (findings.length === 0)
            return text('No stale memories: every checked claim still matches the code.');
          return text(
            findings
              .map((f) => `[${shortId(f.memoryId)}] ${f.status}: ${f.reason} ${describeEvidence(f.evidence)}`)
              .join('\n'),
          );
        },
        () => ({ invocationMessage: 'Checking memories for drift' }),
      ),
    ),
  ];
}
