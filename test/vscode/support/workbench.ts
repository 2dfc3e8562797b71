import type { Page } from 'playwright-core';

/**
 * Drives the VS Code workbench in the page the way a user does: keyboard and visible UI only.
 * Waits are for things to appear; nothing asserts on timing.
 */
export class Workbench {
  constructor(readonly page: Page) {}

  async ready(): Promise<void> {
    await this.page.locator('.monaco-workbench').waitFor({ timeout: 60_000 });
    await this.page.locator('.statusbar').waitFor({ timeout: 60_000 });
  }

  /**
   * F1, the command's title, Enter: as from the command palette. A palette that opened but never
   * listed the command (seen a few times under load: the list stayed empty for 30 s) is closed
   * and opened again, as a user would, up to three times.
   */
  async runCommand(title: string): Promise<void> {
    const input = this.page.locator('.quick-input-widget input');
    const row = this.page.locator('.quick-input-list .monaco-list-row', { hasText: title }).first();
    for (let attempt = 1; ; attempt++) {
      await this.page.keyboard.press('F1');
      await input.waitFor();
      await input.fill(`>${title}`);
      try {
        await row.waitFor({ timeout: attempt < 3 ? 15_000 : 30_000 });
        break;
      } catch (error) {
        if (attempt >= 3) throw error;
        await this.page.keyboard.press('Escape');
      }
    }
    await this.page.keyboard.press('Enter');
  }

  /** Opens a workspace file through Quick Open. */
  async openFile(relativePath: string): Promise<void> {
    await this.page.keyboard.press('Control+P');
    const input = this.page.locator('.quick-input-widget input');
    await input.waitFor();
    await input.fill(relativePath);
    await this.page
      .locator('.quick-input-list .monaco-list-row', {
        hasText: relativePath.split('/').pop() ?? relativePath,
      })
      .first()
      .waitFor();
    await this.page.keyboard.press('Enter');
    await this.page.locator('.monaco-editor .view-lines').first().waitFor();
  }

  /**
   * Selects one whole line of the active editor (Go to Line, then Home, Shift+End), after putting
   * the focus in the editor (panels such as Chat take it when they open), and waits until the
   * status bar shows the selection.
   */
  async selectLine(line: number): Promise<void> {
    await this.page.locator('.editor-group-container.active .monaco-editor .view-lines').first().click();
    await this.page.keyboard.press('Control+G');
    const input = this.page.locator('.quick-input-widget input');
    await input.waitFor();
    await input.fill(`:${line}`);
    await this.page.keyboard.press('Enter');
    await this.page.keyboard.press('Home');
    await this.page.keyboard.press('Shift+End');
    await this.page
      .locator('.statusbar-item', { hasText: `Ln ${line},` })
      .filter({ hasText: 'selected' })
      .first()
      .waitFor();
  }

  async notification(text: string | RegExp): Promise<string> {
    const toast = this.page.locator('.notifications-toasts .notification-toast', { hasText: text }).first();
    await toast.waitFor({ timeout: 60_000 });
    return (await toast.innerText()).trim();
  }

  /**
   * What Engram's status-bar item says once it matches `text` (a remember is announced there,
   * not in a toast): its accessible label, which holds the whole announcement.
   */
  async engramStatus(text: string | RegExp): Promise<string> {
    const item = this.page.locator('[id="engram.engram.engram.status"]');
    const matches = (label: string) => (typeof text === 'string' ? label.includes(text) : text.test(label));
    let label = '';
    const deadline = Date.now() + 60_000;
    while (Date.now() < deadline) {
      label = (
        (await item
          .first()
          .getAttribute('aria-label')
          .catch(() => null)) ?? ''
      ).trim();
      if (!label)
        label = (
          await item
            .first()
            .innerText()
            .catch(() => '')
        ).trim();
      if (matches(label)) return label;
      await this.page.waitForTimeout(250);
    }
    throw new Error(`Engram's status bar never said ${String(text)}; last: ${label}`);
  }

  async screenshot(file: string): Promise<void> {
    await this.page.screenshot({ path: file });
  }
}
