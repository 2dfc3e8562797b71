import assert from 'node:assert/strict';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { syntheticMemories } from '../bench/syntheticMemories';
import { artifactDirectory } from './support/artifacts';
import { cliOn, graphViewOf, launchWorkbench, runCommandOnce } from './support/launchWorkbench';
import type { Launched } from './support/launchWorkbench';
import { writeFileSync } from 'node:fs';

/** How many memories the "hundreds of memories" screenshots show. */
const MANY = 300;

const THEMES = [
  { name: 'light', colorTheme: 'Default Light Modern', workbenchClass: 'vs', bodyClass: 'vscode-light' },
  { name: 'dark', colorTheme: 'Default Dark Modern', workbenchClass: 'vs-dark', bodyClass: 'vscode-dark' },
] as const;

/** 300 memories as an MCP memory server file: 30 entities of 10 observations (one memory each). */
function manyMemoriesFile(dir: string): string {
  const texts = syntheticMemories(MANY, 7);
  const lines = Array.from({ length: MANY / 10 }, (_, e) =>
    JSON.stringify({
      type: 'entity',
      name: `Area ${e}`,
      entityType: 'module',
      observations: texts.slice(e * 10, e * 10 + 10),
    }),
  );
  const file = path.join(dir, 'many-memories.jsonl');
  writeFileSync(file, lines.join('\n'));
  return file;
}

/**
 * Screenshots of what a user sees first and at scale (issue 19), in a light and a dark theme: the
 * walkthrough, the empty views, a 300-memory Memories tree, the Graph and the Timeline. The theme is
 * a user setting written before code-server starts; each screenshot comes after an assertion on
 * what it shows. They land in .vscode-test/screenshots/themes-<theme>-*.png.
 */
for (const theme of THEMES) {
  describe(`end to end: first use and 300 memories in the ${theme.name} theme`, () => {
    const shots = artifactDirectory('screenshots');
    const shot = (name: string) => path.join(shots, `themes-${theme.name}-${name}.png`);
    let launched: Launched | undefined;
    let page: Page;

    before(async () => {
      launched = await launchWorkbench(`e2e-themes-${theme.name}`, {
        userSettings: {
          'workbench.colorTheme': theme.colorTheme,
          // A fresh workspace with no memories: no scan on open, so the views stay empty.
          'engram.scan.auto': false,
          'workbench.startupEditor': 'none',
        },
      });
      page = launched.page;
    });

    after(async () => {
      await launched?.stop();
    });

    it('the window is in the theme from its first frame', async () => {
      await page.locator(`.monaco-workbench.${theme.workbenchClass}`).waitFor({ timeout: 30_000 });
    });

    it('the empty Memories view shows its welcome text and buttons', async () => {
      await runCommandOnce(launched!, 'Engram: Show Memories', shot('palette-failed'));
      const welcome = page.locator('.welcome-view-content', { hasText: 'No memories yet' }).first();
      await welcome.waitFor({ timeout: 60_000 });
      for (const button of ['Remember a Note', 'Scan Workspace'])
        await welcome.locator('.monaco-button', { hasText: button }).first().waitFor();
      await launched!.workbench.screenshot(shot('1-empty-views'));
    });

    it('Get Started opens the walkthrough with its steps', async () => {
      await runCommandOnce(launched!, 'Engram: Get Started', shot('palette-failed'));
      const walkthrough = page.locator('.gettingStartedContainer', { hasText: 'Get started with Engram' });
      await walkthrough.first().waitFor({ timeout: 60_000 });
      for (const step of ['What Engram keeps', 'Remember a note', 'Ask in chat'])
        await walkthrough.locator('.getting-started-step', { hasText: step }).first().waitFor();
      await launched!.workbench.screenshot(shot('2-walkthrough'));
      await runCommandOnce(launched!, 'View: Close All Editors', shot('palette-failed'));
    });

    it(`the Memories tree with ${MANY} memories`, async () => {
      const engram = cliOn(launched!.workspace);
      await engram(
        'import',
        '--from',
        'mcp-memory',
        manyMemoriesFile(artifactDirectory(`e2e-themes-${theme.name}`)),
      );
      const count = page.locator('[id="engram.engram.engram.status"]');
      await count.filter({ hasText: new RegExp(`\\b${MANY}\\b`) }).waitFor({ timeout: 60_000 });
      await runCommandOnce(launched!, 'Engram: Show Memories', shot('palette-failed'));
      const view = page.locator('.pane', { hasText: 'Memories' }).first();
      // Grouped by kind (the default): the imported observations are facts, one group of 300.
      const facts = view.locator('.monaco-list-row', {
        hasText: new RegExp(`^\\s*fact\\s*${MANY} memories`),
      });
      await facts.first().waitFor({ timeout: 60_000 });
      await facts.first().click();
      // The tree renders the rows in view: a screenful of memory rows under the group.
      const rows = view.locator('.monaco-list-row[aria-level="2"]');
      await rows.nth(9).waitFor({ timeout: 60_000 });
      assert.ok((await rows.count()) >= 10, 'memory rows are shown under the group');
      await launched!.workbench.screenshot(shot('3-memories-300'));
    });

    it('the Graph panel is drawn in the theme', async () => {
      await runCommandOnce(launched!, 'Engram: Open Graph', shot('palette-failed'));
      const graph = graphViewOf(page);
      await graph
        .locator('#status')
        .filter({ hasText: /^[1-9]\d* entities, \d+ memories, \d+ links · overview/ })
        .waitFor({ timeout: 90_000 });
      await graph.locator('body[data-layout="done"]').waitFor({ timeout: 90_000 });
      await graph.locator(`body.${theme.bodyClass}`).waitFor({ timeout: 10_000 });
      await launched!.workbench.screenshot(shot('4-graph'));
      await runCommandOnce(launched!, 'View: Close All Editors', shot('palette-failed'));
    });

    it('the Timeline panel is drawn in the theme', async () => {
      await runCommandOnce(launched!, 'Engram: Open Timeline', shot('palette-failed'));
      const timeline = graphViewOf(page);
      await timeline
        .locator('#status')
        .filter({ hasText: new RegExp(`^[1-9]\\d* of ${MANY} memories`) })
        .waitFor({ timeout: 90_000 });
      await timeline.locator(`body.${theme.bodyClass}`).waitFor({ timeout: 10_000 });
      await launched!.workbench.screenshot(shot('5-timeline'));
      assert.deepEqual(launched!.dialogs, []);
    });
  });
}
