import type { Command } from 'commander';
import { Option } from 'commander';
import { HOOK_CLIENTS, installHooks, uninstallHooks } from '../capture/hooks/agentHooks';
import type { HookClientName } from '../capture/hooks/agentHooks';

export interface HookCliHost {
  /** The workspace the hooks are for. */
  workspace: () => string;
  /** This Engram's CLI script (dist/cli.js), which the hooks run. */
  cliScript: string;
  stdout: (text: string) => void;
}

const CLIENTS = Object.keys(HOOK_CLIENTS) as HookClientName[];

/**
 * `engram hooks install|uninstall --client claude-code|gemini|codex`: hooks that make the agent
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
      const change = installHooks(host.workspace(), o.client, host.cliScript);
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
      const change = uninstallHooks(host.workspace(), o.client);
      host.stdout(
        change.events.length > 0
          ? `removed Engram's ${change.events.join(', ')} hooks from ${change.file}\n`
          : `no Engram hook in ${change.file}\n`,
      );
    });
}
