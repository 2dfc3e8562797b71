import path from 'node:path';
import * as vscode from 'vscode';
import type { Kind, Layer, RememberResult } from '../../engine/index';
import { guardedCommand } from './guardedCommand';
import type { EngramServices } from './services';
import { memoryTitle } from '../memoryPresentation';

interface NoteKind {
  kind: Kind;
  layer: Layer;
  detail: string;
}

const PLAIN_NOTE: NoteKind = { kind: 'note', layer: 'semantic', detail: 'anything worth keeping' };

const NOTE_KINDS: NoteKind[] = [
  PLAIN_NOTE,
  { kind: 'fact', layer: 'semantic', detail: 'how something is' },
  { kind: 'decision', layer: 'semantic', detail: 'what was chosen, and why' },
  { kind: 'preference', layer: 'semantic', detail: 'how the team likes things done' },
  { kind: 'error-pattern', layer: 'semantic', detail: 'a mistake and its fix' },
  { kind: 'negative', layer: 'semantic', detail: 'something that is not so, or was removed' },
  { kind: 'procedure', layer: 'procedural', detail: 'steps to do something' },
];

function outcomeMessage(result: RememberResult): string {
  const title = memoryTitle(result.memory, 60);
  const redacted = result.redacted.length > 0 ? ` (redacted: ${result.redacted.join(', ')})` : '';
  switch (result.outcome) {
    case 'unchanged':
      return `Already remembered: ${title}`;
    case 'updated':
      return `Merged into ${result.merged?.into ?? result.memory.id} as a restatement of "${memoryTitle({ content: result.merged?.previousContent ?? '' }, 40)}": ${title}${redacted}`;
    case 'superseded':
      return `Remembered, replacing ${result.superseded.length} older: ${title}${redacted}`;
    case 'added':
      return `Remembered: ${title}${redacted}`;
  }
}

/**
 * One line in Engram's status-bar item, replaced by the next remember (a toast per remember
 * stacked up in the corner); clicking it opens the memory.
 */
function announce(services: EngramServices, result: RememberResult): void {
  const verb = result.outcome === 'unchanged' ? 'Already remembered' : 'Remembered';
  services.statusBar.announce(`${verb}: ${memoryTitle(result.memory, 40)}`, outcomeMessage(result), {
    command: 'engram.openMemory',
    title: 'Open Memory',
    arguments: [result.memory.id],
  });
  services.log.info(`remember ${result.outcome} ${result.memory.id}`);
}

/**
 * The kind of a typed note: the one given, else the one picked. Escape at the pick keeps the note
 * as a plain `note` (the most general kind; Edit can change the words later): the note was already
 * confirmed with Enter, and dismissing a refinement must not throw away what was typed.
 */
async function kindOf(kind: unknown): Promise<NoteKind> {
  const given = NOTE_KINDS.find((k) => k.kind === kind);
  if (given) return given;
  const picked = await vscode.window.showQuickPick(
    NOTE_KINDS.map((k) => ({ label: k.kind, detail: k.detail, choice: k })),
    { title: 'Engram: kind of memory (Escape: save it as a note)' },
  );
  return picked?.choice ?? PLAIN_NOTE;
}

export function registerRememberCommands(services: EngramServices): vscode.Disposable[] {
  const { engine, log } = services;
  return [
    /** Remembers the selection (or the current line) with its file and span as the source. */
    guardedCommand('engram.rememberSelection', log, async () => {
      const editor = vscode.window.activeTextEditor;
      if (!editor) throw new Error('open a file and select the text to remember');
      const selection = editor.selection.isEmpty
        ? editor.document.lineAt(editor.selection.active.line).range
        : editor.selection;
      const content = editor.document.getText(selection).trim();
      if (content === '') throw new Error('the selection is empty');
      const file = vscode.workspace.asRelativePath(editor.document.uri, false);
      const result = await engine.call('remember', {
        content,
        kind: 'note',
        context: `${file}:${selection.start.line + 1}-${selection.end.line + 1}`,
        source: {
          file,
          start: editor.document.offsetAt(selection.start),
          end: editor.document.offsetAt(selection.end),
        },
        tags: [path.extname(file).replace('.', '') || 'text'],
      });
      announce(services, result);
      return result;
    }),
    /** A typed note; callers (tests, chat buttons) may pass `text` and `kind`; what is missing is asked. */
    guardedCommand('engram.rememberNote', log, async (text?: unknown, kind?: unknown) => {
      const content =
        typeof text === 'string'
          ? text
          : await vscode.window.showInputBox({
              title: 'Engram: Remember Note',
              prompt: 'What should Engram remember?',
              placeHolder: 'e.g. We use pnpm, never npm, in this repository',
              validateInput: (v) => (v.trim() === '' ? 'Type something to remember' : undefined),
            });
      if (!content) return undefined;
      const choice = await kindOf(kind);
      const result = await engine.call('remember', { content, kind: choice.kind, layer: choice.layer });
      announce(services, result);
      return result;
    }),
  ];
}
