import type { Command } from 'commander';
import { Option } from 'commander';
import { MCP_CLIENTS, mcpConfig } from '../mcp/mcpConfig';
import { launcherPath } from '../mcp/mcpLauncher';

export interface McpConfigCliHost {
  /** The workspace the bridge will find its database in; --user has none. */
  workspace: () => string;
  /** This Engram's MCP bridge script (dist/mcp.js), which the configuration starts. */
  bridgeScript: string;
  home: string;
  platform: NodeJS.Platform;
  env: NodeJS.ProcessEnv;
  stdout: (text: string) => void;
}

/** `engram mcp-config --client NAME [--write]`: an MCP client's entry for this workspace's bridge. */
export function registerMcpConfigCommand(program: Command, host: McpConfigCliHost): void {
  program
    .command('mcp-config')
    .description('print (or --write) the MCP configuration of a client for this workspace')
    .addOption(new Option('--client <client>', 'the MCP client').choices(MCP_CLIENTS).makeOptionMandatory())
    .option('--write', 'add Engram to the client configuration file (other entries are kept)')
    .action((o: { client: string; write?: boolean }) => {
      const { bridgeScript, home } = host;
      const config = mcpConfig(o.client, {
        workspace: host.workspace(),
        bridgeScript,
        home,
        platform: host.platform,
        env: host.env,
      });
      if (o.write) config.write();
      host.stdout(
        o.write
          ? `wrote the engram entry to ${config.file}; it starts ${launcherPath(home)}, which runs ${bridgeScript}\n`
          : `# ${config.file}\n${config.snippet}\n`,
      );
    });
}
