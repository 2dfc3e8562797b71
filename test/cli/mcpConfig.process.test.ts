import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { refreshLauncher } from '../../engine/mcp/mcpLauncher';
import { bridgeEnv } from '../mcp/bridgeProcess';
import { tempDir } from '../support/temp';
import { CLI, engramProcess } from './engramCli';

interface ServerEntry {
  command: string;
  args: string[];
}

/** A git repository (the workspace) and a home folder of its own. */
function setup(): { workspace: string; home: string } {
  const dir = tempDir();
  const workspace = path.join(dir, 'project');
  const home = path.join(dir, 'home');
  mkdirSync(workspace, { recursive: true });
  mkdirSync(home, { recursive: true });
  execFileSync('git', ['init', '-q'], { cwd: workspace });
  return { workspace, home };
}

/** Starts a server entry as a client would, with `${HOME}` expanded the way Claude Code does. */
async function connect(entry: ServerEntry, cwd: string, home: string): Promise<Client> {
  const args = entry.args.map((a) => a.replace('${HOME}', home));
  const transport = new StdioClientTransport({
    command: entry.command === 'node' ? process.execPath : entry.command,
    args,
    cwd,
    env: bridgeEnv({ HOME: home }),
    stderr: 'ignore',
  });
  const client = new Client({ name: 'mcp-config-test', version: '1.0.0' });
  await client.connect(transport);
  return client;
}

describe('engram mcp-config writes configurations that survive updates and can be shared', () => {
  it("Claude Code's .mcp.json holds no absolute path, and starts the bridge for the project", async () => {
    const { workspace, home } = setup();
    const written = engramProcess(workspace, ['mcp-config', '--client', 'claude-code', '--write'], {
      HOME: home,
    });
    assert.equal(written.code, 0, written.err);
    const text = readFileSync(path.join(workspace, '.mcp.json'), 'utf8');
    assert.ok(!text.includes(workspace) && !text.includes(home) && !text.includes('dist/mcp.js'), text);
    const entry = (JSON.parse(text) as { mcpServers: { engram: ServerEntry } }).mcpServers.engram;
    assert.deepEqual(entry.args, ['${HOME}/.config/engram/mcp.cjs']);
    const launcher = readFileSync(path.join(home, '.config', 'engram', 'mcp.cjs'), 'utf8');
    assert.match(
      launcher,
      new RegExp(`require\\(${JSON.stringify(path.join(path.dirname(CLI), 'mcp.js'))}\\)`),
    );

    // A teammate's client, started in a subfolder of the project, reaches this project's memory.
    const sub = path.join(workspace, 'src');
    mkdirSync(sub);
    const client = await connect(entry, sub, home);
    try {
      const tools = await client.listTools();
      assert.ok(tools.tools.some((t) => t.name === 'memory_remember'));
      await client.callTool({
        name: 'memory_remember',
        arguments: { content: 'Releases go out on Tuesdays' },
      });
    } finally {
      await client.close();
    }
    const listed = engramProcess(workspace, ['list'], { HOME: home });
    assert.match(listed.out, /Releases go out on Tuesdays/, 'the bridge used the project database');
  });

  it("VS Code's and Cursor's files name the launcher and the workspace in the editor's variables", () => {
    const { workspace, home } = setup();
    for (const [client, file, key] of [
      ['vscode', '.vscode/mcp.json', 'servers'],
      ['cursor', '.cursor/mcp.json', 'mcpServers'],
    ] as const) {
      const written = engramProcess(workspace, ['mcp-config', '--client', client, '--write'], { HOME: home });
      assert.equal(written.code, 0, written.err);
      const config = JSON.parse(readFileSync(path.join(workspace, file), 'utf8')) as Record<
        string,
        Record<string, ServerEntry>
      >;
      assert.deepEqual(config[key]?.['engram']?.args, [
        '${userHome}/.config/engram/mcp.cjs',
        '--workspace',
        '${workspaceFolder}',
      ]);
    }
  });

  it('an update repoints the launcher; without a launcher nothing is written', async () => {
    const { home } = setup();
    assert.equal(await refreshLauncher(home, '/ext/engram-0.2.0/dist/mcp.js'), false, 'nobody asked for one');
    const launcher = path.join(home, '.config', 'engram', 'mcp.cjs');
    mkdirSync(path.dirname(launcher), { recursive: true });
    writeFileSync(launcher, 'require("/ext/engram-0.1.0/dist/mcp.js");\n');
    assert.equal(await refreshLauncher(home, '/ext/engram-0.2.0/dist/mcp.js'), true);
    assert.match(readFileSync(launcher, 'utf8'), /engram-0\.2\.0/);
    assert.equal(await refreshLauncher(home, '/ext/engram-0.2.0/dist/mcp.js'), false, 'already current');
  });
});
