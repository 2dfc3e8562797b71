import path from 'node:path';
import type { SqlWriter } from '../store/sqlAccess';
import type { CaptureAgent, CaptureEvent, FileTouchEvent } from './events';
import type { SessionTimes } from './sessionTimes';
import { isInside } from './workspaceSources';

/** Tool output kept per call (the whole output stays in the record it came from). */
const OUTPUT_CHARS = 4000;

export interface RecordContext {
  agent: CaptureAgent;
  source: string;
  sessionId: string;
  recordId: number;
  at: number | undefined;
  root: string;
}

/**
 * The derived rows of one record: the session (created on its first record, its times widened by
 * each), turns, tool calls (a result completes its call whatever order they come in), file
 * touches (workspace-relative paths), commands (their exit status from the call's result) and
 * token usage. Everything here can be rebuilt from the ledger's records. The session's times are
 * widened when `times` is flushed, at the end of the transaction.
 */
export function writeSessionRows(
  tx: SqlWriter,
  ctx: RecordContext,
  events: readonly CaptureEvent[],
  times: SessionTimes,
): void {
  const { sessionId, recordId, at } = ctx;
  times.note(tx, ctx);
  for (const event of events) {
    const when = event.at ?? at ?? null;
    switch (event.kind) {
      case 'session':
        tx.run(
          `UPDATE capture_sessions SET model = coalesce(?, model), cwd = coalesce(cwd, ?),
             git_branch = coalesce(git_branch, ?), git_commit = coalesce(git_commit, ?),
             parent_id = coalesce(parent_id, ?), title = coalesce(?, title) WHERE id = ?`,
          [
            event.model ?? null,
            event.cwd ?? null,
            event.gitBranch ?? null,
            event.gitCommit ?? null,
            event.parentId ?? null,
            event.title ?? null,
            sessionId,
          ],
        );
        break;
      case 'turn':
        tx.run(
          'INSERT INTO capture_turns (session_id, record_id, role, text, thinking, model, at) VALUES (?, ?, ?, ?, ?, ?, ?)',
          [sessionId, recordId, event.role, event.text, event.thinking ?? null, event.model ?? null, when],
        );
        break;
      case 'tool-call':
        tx.run(
          `INSERT INTO capture_tool_calls (session_id, record_id, call_id, name, arguments, status, started_at)
           VALUES (?, ?, ?, ?, ?, 'pending', ?)
           ON CONFLICT (session_id, call_id) DO UPDATE SET name = excluded.name, arguments = excluded.arguments,
             started_at = excluded.started_at, record_id = excluded.record_id`,
          [sessionId, recordId, event.callId, event.name, JSON.stringify(event.arguments), when],
        );
        break;
      case 'tool-result':
        tx.run(
          `INSERT INTO capture_tool_calls (session_id, record_id, call_id, status, output, exit_code, duration_ms, ended_at)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?)
           ON CONFLICT (session_id, call_id) DO UPDATE SET status = excluded.status,
             output = coalesce(excluded.output, output), exit_code = coalesce(excluded.exit_code, exit_code),
             ended_at = coalesce(excluded.ended_at, ended_at),
             duration_ms = coalesce(excluded.duration_ms, excluded.ended_at - started_at)`,
          [
            sessionId,
            recordId,
            event.callId,
            event.status,
            event.output === undefined ? null : event.output.slice(0, OUTPUT_CHARS),
            event.exitCode ?? null,
            event.durationMs ?? null,
            when,
          ],
        );
        if (event.exitCode !== undefined) {
          tx.run('UPDATE capture_commands SET exit_code = ? WHERE session_id = ? AND call_id = ?', [
            event.exitCode,
            sessionId,
            event.callId,
          ]);
        }
        break;
      case 'file-touch':
        writeTouch(tx, ctx, event, when);
        break;
      case 'command': {
        // The result may have come first (records of one call can be out of order).
        const exit =
          event.exitCode ??
          (event.callId === undefined
            ? undefined
            : tx.value<number>(
                'SELECT exit_code FROM capture_tool_calls WHERE session_id = ? AND call_id = ?',
                [sessionId, event.callId],
              ));
        tx.run(
          'INSERT INTO capture_commands (session_id, record_id, call_id, command, exit_code, at) VALUES (?, ?, ?, ?, ?, ?)',
          [sessionId, recordId, event.callId ?? null, event.command, exit ?? null, when],
        );
        break;
      }
      case 'usage':
        tx.run(
          event.mode === 'add'
            ? `UPDATE capture_sessions SET input_tokens = input_tokens + ?, output_tokens = output_tokens + ?,
                 cache_read_tokens = cache_read_tokens + ?, cache_write_tokens = cache_write_tokens + ?,
                 reasoning_tokens = reasoning_tokens + ? WHERE id = ?`
            : `UPDATE capture_sessions SET input_tokens = max(input_tokens, ?), output_tokens = max(output_tokens, ?),
                 cache_read_tokens = max(cache_read_tokens, ?), cache_write_tokens = max(cache_write_tokens, ?),
                 reasoning_tokens = max(reasoning_tokens, ?) WHERE id = ?`,
          [event.input, event.output, event.cacheRead, event.cacheWrite, event.reasoning, sessionId],
        );
        break;
    }
  }
}

/** A call's touch of a path is one row: a later record with the edit's hunks completes it. */
function writeTouch(tx: SqlWriter, ctx: RecordContext, event: FileTouchEvent, when: number | null): void {
  const cwd = tx.value<string>('SELECT cwd FROM capture_sessions WHERE id = ?', [ctx.sessionId]) ?? ctx.root;
  const file = workspacePath(event.path, cwd, ctx.root);
  const hunks = event.hunks === undefined ? null : JSON.stringify(event.hunks);
  if (event.callId !== undefined) {
    const existing = tx.value<number>(
      'SELECT id FROM capture_file_touches WHERE session_id = ? AND call_id = ? AND path = ?',
      [ctx.sessionId, event.callId, file],
    );
    if (existing !== undefined) {
      if (hunks !== null) {
        tx.run('UPDATE capture_file_touches SET action = ?, hunks = ? WHERE id = ?', [
          event.action,
          hunks,
          existing,
        ]);
      }
      return;
    }
  }
  tx.run(
    'INSERT INTO capture_file_touches (session_id, record_id, call_id, path, action, hunks, at) VALUES (?, ?, ?, ?, ?, ?, ?)',
    [ctx.sessionId, ctx.recordId, event.callId ?? null, file, event.action, hunks, when],
  );
}

/** A path inside the workspace as a relative `/` path; one outside it stays absolute. */
export function workspacePath(file: string, cwd: string, root: string): string {
  const absolute = path.resolve(cwd, file);
  return isInside(absolute, root) ? path.relative(root, absolute).split(path.sep).join('/') : absolute;
}
