import * as vscode from 'vscode';
import { ENGRAM_ICON } from '../packageAssets';
import type { EngineConnection } from '../engineConnection';
import type { DriftState } from '../driftState';
import type { RecallHit } from '../../engine/index';
import { driftListItem, escapedText, memoryListItem, sourceReference } from './chatMarkdown';
import { memoryUri } from '../memoryDocuments';
import { readSettings } from '../settings';
import { summarizeWithModel } from './modelSummary';
import { whySessionsMarkdown } from './whySessions';

export const CHAT_PARTICIPANT_ID = 'engram.chat';
/** Who chat writes are recorded as (agent trust, not human). */
const CHAT_ACTOR = { agent: 'vscode-chat' };

export interface ChatDependencies {
  engine: EngineConnection;
  drift: DriftState;
}

/**
 * The memories of an answer, best match first, in words (no ids, no scores); numbered when a model's
 * answer cites them by number. References are named by the memory's words, like its tab.
 */
function streamHits(
  deps: ChatDependencies,
  stream: vscode.ChatResponseStream,
  hits: RecallHit[],
  numbered = false,
): void {
  const root = vscode.workspace.workspaceFolders?.[0]?.uri;
  for (const [i, hit] of hits.entries()) {
    const finding = deps.drift.findingFor(hit.memory.id);
    stream.markdown(
      memoryListItem(hit.memory, {
        ...(numbered ? { marker: `${i + 1}.` } : {}),
        ...(finding ? { stale: { commit: finding.evidence.commit } } : {}),
      }),
    );
    stream.reference(memoryUri(hit.memory.id, hit.memory.content));
    const source = sourceReference(hit.memory, root);
    if (source) stream.reference(source);
  }
}

/** The file (and selection, and cursor line) `/why` and `/context` talk about: the active editor's, if any. */
function editorFocus(): { file?: string; selection?: string; line?: number } {
  const editor = vscode.window.activeTextEditor;
  if (!editor || editor.document.uri.scheme !== 'file') return {};
  const selection = editor.selection.isEmpty
    ? undefined
    : editor.document.getText(editor.selection).slice(0, 500);
  return {
    file: vscode.workspace.asRelativePath(editor.document.uri, false),
    line: editor.selection.active.line + 1,
    ...(selection ? { selection } : {}),
  };
}

async function recallCommand(
  deps: ChatDependencies,
  request: vscode.ChatRequest,
  stream: vscode.ChatResponseStream,
  token: vscode.CancellationToken,
) {
  const query = request.prompt.trim();
  if (!query) {
    stream.markdown('Ask me something, e.g. `@engram /recall how do we release?`');
    return { metadata: { command: 'recall', hits: 0 } };
  }
  stream.progress('Recalling…');
  const { hits } = await deps.engine.call('recall', { query, k: 8 }, CHAT_ACTOR);
  const stale = await deps.engine.staleNote();
  if (stale) stream.markdown(`_${escapedText(stale)}_\n\n`);
  if (hits.length === 0) {
    stream.markdown(`No memory matches ${escapedText(`"${query}"`)}. Teach me with \`/remember\`.`);
    return { metadata: { command: 'recall', hits: 0 } };
  }
  // Without a command, a language model (when the user has one) may answer from the memories.
  const answered = !request.command && (await summarizeWithModel(request, hits, stream, token));
  if (answered) stream.markdown('\n\n**Memories used:**\n\n');
  streamHits(deps, stream, hits, answered);
  return { metadata: { command: 'recall', hits: hits.length } };
}

async function rememberCommand(
  deps: ChatDependencies,
  request: vscode.ChatRequest,
  stream: vscode.ChatResponseStream,
) {
  const content = request.prompt.trim();
  if (!content) {
    stream.markdown(
      'Tell me what to remember, e.g. `@engram /remember we deploy from the release branch only`',
    );
    return { metadata: { command: 'remember' } };
  }
  const result = await deps.engine.call('remember', { content, kind: 'note' }, CHAT_ACTOR);
  const verb = {
    added: 'Remembered',
    updated: 'Updated a similar memory',
    unchanged: 'I already knew that',
    superseded: 'Remembered (replacing an older one)',
  }[result.outcome];
  stream.markdown(`${verb}:\n\n`);
  stream.markdown(memoryListItem(result.memory));
  stream.reference(memoryUri(result.memory.id, result.memory.content));
  if (result.redacted.length > 0)
    stream.markdown(`\nRedacted before storing: ${result.redacted.join(', ')}.`);
  stream.button({ command: 'engram.forgetMemory', title: 'Forget it', arguments: [result.memory.id] });
  return { metadata: { command: 'remember', id: result.memory.id, outcome: result.outcome } };
}

async function contextCommand(
  deps: ChatDependencies,
  request: vscode.ChatRequest,
  stream: vscode.ChatResponseStream,
) {
  if (!request.prompt.trim()) return primeCommand(deps, stream);
  const focus = editorFocus();
  const query = [request.prompt.trim(), focus.file, focus.selection].filter(Boolean).join(' ');
  const block = await deps.engine.call(
    'context',
    { query, budget: readSettings().contextBudget, conversation: `vscode-chat-${Date.now()}` },
    CHAT_ACTOR,
  );
  stream.markdown(
    `Context for ${escapedText(query.slice(0, 80))} (${block.tokens}/${block.budget} tokens, ${block.included.length} memories):\n\n`,
  );
  stream.markdown(`\`\`\`text\n${block.text.replace(/```/g, '`\u200b``')}\n\`\`\`\n`);
  // References named by the memories' words (the block itself is what agents get, ids included).
  const titled = await Promise.all(
    block.included.map((item) =>
      deps.engine
        .call('get', { id: item.id, readOnly: true })
        .then(({ memory }) => memoryUri(memory.id, memory.content))
        .catch(() => memoryUri(item.id)),
    ),
  );
  for (const uri of titled) stream.reference(uri);
  return { metadata: { command: 'context', included: block.included.length, tokens: block.tokens } };
}

/** `/context` with no query: where the project stands, as a fresh agent session gets it. */
async function primeCommand(deps: ChatDependencies, stream: vscode.ChatResponseStream) {
  const block = await deps.engine.call(
    'prime',
    { budget: readSettings().contextBudget, conversation: `vscode-chat-${Date.now()}` },
    CHAT_ACTOR,
  );
  if (block.text === '') {
    stream.markdown('Nothing to prime a session with yet: no pinned memory, captured session or decision.');
    return { metadata: { command: 'context', included: 0, tokens: 0 } };
  }
  stream.markdown(
    `Where the project stands (${block.tokens}/${block.budget} tokens, what a new agent session starts with):\n\n`,
  );
  stream.markdown(`\`\`\`text\n${block.text.replace(/```/g, '`\u200b``')}\n\`\`\`\n`);
  return { metadata: { command: 'context', included: block.included.length, tokens: block.tokens } };
}

async function driftCommand(deps: ChatDependencies, stream: vscode.ChatResponseStream) {
  if (!vscode.workspace.isTrusted) {
    stream.markdown('Drift reads the workspace files: trust this workspace to check it.');
    return { metadata: { command: 'drift', available: false } };
  }
  stream.progress('Checking memories against the code and git history…');
  const report = await deps.drift.check();
  const findings = report.findings;
  if (findings.length === 0) {
    stream.markdown('Every checked memory still matches the code.');
  } else {
    stream.markdown(
      `${findings.length} stale ${findings.length === 1 ? 'memory' : 'memories'}${report.score === undefined ? '' : ` (drift score ${Math.round(report.score)})`}:\n\n`,
    );
    for (const f of findings) {
      stream.markdown(driftListItem(f));
      stream.reference(memoryUri(f.memoryId, f.content));
    }
    stream.button({ command: 'engram.fixDrift', title: 'Fix drift…' });
  }
  return { metadata: { command: 'drift', stale: findings.length } };
}

async function whyCommand(
  deps: ChatDependencies,
  request: vscode.ChatRequest,
  stream: vscode.ChatResponseStream,
) {
  const focus = editorFocus();
  const query = [request.prompt.trim(), focus.file, focus.selection].filter(Boolean).join(' ');
  if (!query) {
    stream.markdown('Open a file (or select code) and ask `@engram /why`.');
    return { metadata: { command: 'why', hits: 0 } };
  }
  // The captured agent sessions (and their commits) behind the file at the cursor's line, first;
  // a file outside the workspace has none, and the decisions below still answer.
  const sessions = focus.file
    ? await deps.engine.call('why', { file: focus.file, line: focus.line }, CHAT_ACTOR).catch(() => undefined)
    : undefined;
  if (sessions && sessions.sessions.length > 0) stream.markdown(whySessionsMarkdown(sessions));
  const { hits } = await deps.engine.call('recall', { query: `why ${query}`, k: 20 }, CHAT_ACTOR);
  const decisions = hits
    .filter((h) => ['decision', 'preference', 'error-pattern', 'negative', 'fact'].includes(h.memory.kind))
    .slice(0, 8);
  if (decisions.length === 0 && sessions && sessions.sessions.length > 0) {
    return { metadata: { command: 'why', hits: 0, sessions: sessions.sessions.length } };
  }
  if (decisions.length === 0) {
    stream.markdown(`No recorded decision about ${escapedText(focus.file ?? query.slice(0, 80))} yet.`);
    return { metadata: { command: 'why', hits: 0 } };
  }
  stream.markdown(`Decisions and facts about ${escapedText(focus.file ?? query.slice(0, 80))}:\n\n`);
  streamHits(deps, stream, decisions);
  return { metadata: { command: 'why', hits: decisions.length } };
}

/**
 * `@engram`: pure retrieval, so it works with no language model at all. Every failure becomes a
 * short message in the chat (a memory failure never breaks the turn).
 */
export function engramChatHandler(
  deps: ChatDependencies,
  log: vscode.LogOutputChannel,
): vscode.ChatRequestHandler {
  return async (request, _context, stream, token) => {
    try {
      switch (request.command) {
        case 'remember':
          return await rememberCommand(deps, request, stream);
        case 'context':
          return await contextCommand(deps, request, stream);
        case 'drift':
          return await driftCommand(deps, stream);
        case 'why':
          return await whyCommand(deps, request, stream);
        default:
          return await recallCommand(deps, request, stream, token);
      }
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      log.error(`@engram /${request.command ?? 'recall'}: ${message}`);
      stream.markdown(`Engram could not answer: ${escapedText(message)}`);
      return { errorDetails: { message }, metadata: { command: request.command ?? 'recall' } };
    }
  };
}

export function registerChatParticipant(
  deps: ChatDependencies,
  log: vscode.LogOutputChannel,
  extensionUri: vscode.Uri,
): vscode.Disposable {
  const participant = vscode.chat.createChatParticipant(CHAT_PARTICIPANT_ID, engramChatHandler(deps, log));
  participant.iconPath = vscode.Uri.joinPath(extensionUri, ...ENGRAM_ICON);
  participant.followupProvider = {
    provideFollowups(result) {
      const command = (result.metadata as { command?: string } | undefined)?.command;
      if (command === 'recall')
        return [{ prompt: '', command: 'why', label: 'Why is the current file the way it is?' }];
      if (command === 'remember')
        return [{ prompt: '', command: 'context', label: 'Where does the project stand?' }];
      return [];
    },
  };
  return participant;
}
