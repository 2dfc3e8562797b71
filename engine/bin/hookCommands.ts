import type { Command } from 'commander';
import { Option } from 'commander';
import { HOOK_CLIENTS, installHooks, uninstallHooks } from '../capture/hooks/agentHooks';
import type { HookChange, SettingsHookClient } from '../capture/hooks/agentHooks';
import { installClineHooks, uninstallClineHooks } from '../capture/hooks/clineHooks';

export interface HookCliHost {
  /** The workspace the hooks are for. */
  workspace: () => string;
  /** This Engram's CLI script (dist/cli.js), which the hooks run. */
  cliScript: string;
  stdout: (text: string) => void;
}

type HookClientName = SettingsHookClient | 'cline';
const CLIENTS = [...(Object.keys(HOOK_CLIENTS) as SettingsHookClient[]), 'cline'] as const;

function install(
  workspace: string,
  client: HookClientName,
  cliScript: string,
): HookChange & { note: string } {
  if (client !== 'cline') return installHooks(workspace, client, cliScript);
  return {
    ...installClineHooks(workspace, cliScript),
    note: "; Cline runs them on Linux and macOS (Windows' PowerShell hooks are not written)",
  };
}

/**
 * `engram hooks install|uninstall --client claude-code|gemini|codex|copilot|cline`: hooks that make the agent
 * itself start each session with `engram context --prime` and run `engram capture run` after each
 * turn (and at the end of a session where the agent has such an event), in this workspace only.
 */
export function registerHookCommands(program: Command, host: HookCliHost): void {
  const hooks = program
    .command('hooks')
    .description("an agent's hooks that capture its sessions as it works");
  const client = () => new Option('--client <client>', 'the agent').choices(CLIENTS).makeOptionMandatory();
  hooks
    .command('install')
    .addOption(client())
    .description('add (or refresh) the hooks in the agent settings of this workspace; others are kept')
    .action((o: { client: HookClientName }) => {
      const change = install(host.workspace(), o.client, host.cliScript);
      host.stdout(
        `hooks ${change.events.join(', ')} in ${change.file}: ${host.cliScript} primes each new session ` +
          '(context --prime) and runs capture run after each turn; engram capture enable must be on for them to read anything' +
          `${change.note}\n`,
      );
    });
  hooks
    .command('uninstall')
    .addOption(client())
    .description("remove Engram's hooks from the agent settings of this workspace")
    .action((o: { client: HookClientName }) => {
      const change =
        o.client === 'cline'
          ? uninstallClineHooks(host.workspace())
          : uninstallHooks(host.workspace(), o.client);
      host.stdout(
        change.events.length > 0
          ? `removed Engram's ${change.events.join(', ')} hooks from ${change.file}\n`
          : `no Engram hook in ${change.file}\n`,
      );
    });
}
