import assert from 'node:assert/strict';
import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { ensureBrowser } from '../support/browser';
import { tempDir } from '../support/temp';

/** A real installer: a shell script that records each run and does what `body` says. */
function installerScript(dir: string, body: string): { command: string; args: string[]; runs: () => number } {
  const log = path.join(dir, 'runs.log');
  const script = path.join(dir, 'install.sh');
  writeFileSync(script, `#!/bin/sh\necho run >> "${log}"\n${body}\n`);
  chmodSync(script, 0o755);
  return {
    command: script,
    args: [],
    runs: () => (existsSync(log) ? readFileSync(log, 'utf8').split('\n').filter(Boolean).length : 0),
  };
}

describe('the webview tests install their browser when it is missing', () => {
  it('runs the installer once for a missing browser, and not again once it is there', () => {
    const dir = tempDir();
    const browser = path.join(dir, 'bin', 'chromium');
    const installer = installerScript(dir, `mkdir -p "${path.dirname(browser)}" && touch "${browser}"`);
    assert.equal(
      ensureBrowser(browser, () => installer),
      'installed',
    );
    assert.equal(installer.runs(), 1);
    assert.ok(existsSync(browser));
    assert.equal(
      ensureBrowser(browser, () => installer),
      'present',
    );
    assert.equal(installer.runs(), 1);
  });

  it('a failing installer is one line naming the browser and how the installer ended', () => {
    const dir = tempDir();
    const browser = path.join(dir, 'chromium');
    const installer = installerScript(dir, 'echo "E: Unable to locate package chromium" >&2\nexit 100');
    assert.throws(
      () => ensureBrowser(browser, () => installer),
      (error: Error) => {
        assert.doesNotMatch(error.message, /\n/);
        assert.match(error.message, new RegExp(`cannot install the browser .*${browser}.*exit code 100`));
        return true;
      },
    );
    assert.equal(installer.runs(), 1);
  });

  it('no way to install (no root, no sudo) and an installer that leaves no browser are one line each', () => {
    const dir = tempDir();
    const browser = path.join(dir, 'chromium');
    const noRoot = () => {
      throw new Error('missing Debian packages chromium and no root or passwordless sudo to install them');
    };
    assert.throws(
      () => ensureBrowser(browser, noRoot),
      /^Error: cannot install the browser .*no root[^\n]*$/,
    );
    const installer = installerScript(dir, 'exit 0');
    assert.throws(() => ensureBrowser(browser, () => installer), /^Error: [^\n]*still missing$/);
  });
});
