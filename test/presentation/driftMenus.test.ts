import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';

interface MenuItem {
  command: string;
  when?: string;
  group?: string;
}

const manifest = JSON.parse(
  readFileSync(path.join(import.meta.dirname, '..', '..', 'package.json'), 'utf8'),
) as {
  contributes: { menus: Record<string, MenuItem[]> };
};

/** The `viewItem` values extension/views/driftTree.ts gives a finding (it imports vscode, so not read here). */
const FINDING_CONTEXTS = ['driftFinding', 'driftFinding.fixable'];

/** Whether a `when` clause offers the item on a Drift view row with this context value. */
function offersOn(when: string | undefined, contextValue: string): boolean {
  if (!when?.includes('view == engram.drift')) return false;
  const exact = /viewItem == ([\w.]+)/.exec(when);
  if (exact) return exact[1] === contextValue;
  const pattern = /viewItem =~ \/(.+?)\/(?: |$)/.exec(when);
  return pattern ? new RegExp(pattern[1]!).test(contextValue) : false;
}

describe('the Drift view menus', () => {
  it('give every finding a fix action on its row (inline): Fix… when proposed, else Edit Memory', () => {
    const items = manifest.contributes.menus['view/item/context'] ?? [];
    for (const contextValue of FINDING_CONTEXTS) {
      const inline = items.filter((m) => m.group?.startsWith('inline') && offersOn(m.when, contextValue));
      assert.ok(
        inline.some((m) => m.command === 'engram.fixDriftMemory' || m.command === 'engram.editMemory'),
        `a ${contextValue} row has an inline fix action: ${JSON.stringify(inline)}`,
      );
      const context = items.filter((m) => offersOn(m.when, contextValue)).map((m) => m.command);
      assert.ok(context.includes('engram.editMemory'), `a ${contextValue} row can be edited by hand`);
    }
  });
});
