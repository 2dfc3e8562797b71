import * as vscode from 'vscode';
import type { RecallHit } from '../../engine/index';
import { guardedCommand } from './guardedCommand';
import type { EngramServices } from './services';
import { memoryDescription, memoryTitle } from '../memoryPresentation';

interface HitItem extends vscode.QuickPickItem {
  id: string;
}

const pinButton: vscode.QuickInputButton = { iconPath: new vscode.ThemeIcon('pin'), tooltip: 'Pin' };

function hitItem(hit: RecallHit): HitItem {
  return {
    label: `$(${hit.memory.pinned ? 'pinned' : 'symbol-key'}) ${memoryTitle(hit.memory)}`,
    // The order is the ranking: a raw fused score (0.017) means nothing to a person.
    description: memoryDescription(hit.memory),
    detail: hit.memory.content,
    id: hit.memory.id,
    alwaysShow: true,
    buttons: [pinButton],
  };
}

/**
 * Recall as a quick pick: results follow the typing (debounced; a slower, older answer never
 * replaces a newer one); Enter opens the memory. A query passed in (tests, chat) runs at once and
 * the hits are returned.
 */
export function registerRecallCommand(services: EngramServices): vscode.Disposable {
  const { engine, log } = services;
  return guardedCommand('engram.recall', log, async (query?: unknown) => {
    if (typeof query === 'string') return (await engine.call('recall', { query, k: 10 })).hits;
    const pick = vscode.window.createQuickPick<HitItem>();
    pick.title = 'Engram: Recall';
    pick.placeholder = 'Ask the project memory (e.g. why sql.js? how do we release?)';
    pick.matchOnDescription = true;
    pick.matchOnDetail = true;
    let timer: NodeJS.Timeout | undefined;
    let latest = 0;
    const search = (text: string) => {
      if (timer) clearTimeout(timer);
      if (text.trim() === '') {
        pick.items = [];
        return;
      }
      timer = setTimeout(() => {
        const ticket = ++latest;
        pick.busy = true;
        engine
          .call('recall', { query: text, k: 20 })
          .then(async (result) => {
            const stale = await engine.staleNote();
            if (ticket !== latest) return;
            // Answered from the replica of the team scope while its server is down: say so.
            pick.title = stale ? `Engram: Recall (offline: ${stale})` : 'Engram: Recall';
            pick.items =
              result.hits.length > 0
                ? result.hits.map(hitItem)
                : [{ label: `No memory matches "${text}"`, id: '', alwaysShow: true }];
          })
          .catch((error: unknown) => {
            log.error(`recall: ${String(error)}`);
            pick.items = [
              {
                label: `Recall failed: ${error instanceof Error ? error.message : String(error)}`,
                id: '',
                alwaysShow: true,
              },
            ];
          })
          .finally(() => {
            if (ticket === latest) pick.busy = false;
          });
      }, 150);
    };
    return new Promise<string | undefined>((resolve) => {
      pick.onDidChangeValue(search);
      pick.onDidTriggerItemButton((e) => {
        void vscode.commands.executeCommand('engram.pinMemory', e.item.id);
      });
      pick.onDidAccept(() => {
        const chosen = pick.selectedItems[0];
        if (!chosen?.id) return;
        pick.hide();
        void vscode.commands.executeCommand('engram.openMemory', chosen.id);
        resolve(chosen.id);
      });
      pick.onDidHide(() => {
        if (timer) clearTimeout(timer);
        pick.dispose();
        resolve(undefined);
      });
      pick.show();
    });
  });
}
