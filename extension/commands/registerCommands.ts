import type * as vscode from 'vscode';
import type { EngramServices } from './services';
import { registerRememberCommands } from './rememberCommands';
import { registerRecallCommand } from './recallCommand';
import { registerLifecycleCommands } from './lifecycleCommands';
import { registerWorkspaceCommands } from './workspaceCommands';
import { registerDriftCommands } from './driftCommands';
import { registerExchangeCommands } from './exchangeCommands';
import { registerMcpConfigCommand } from './mcpConfigCommand';
import { registerViewCommands } from './viewCommands';
import { registerMemoryEditCommands } from './memoryEditCommands';
import { registerFileMemoriesCommand } from './fileMemoriesCommand';
import { registerTidyMemoryCommand } from './tidyMemoryCommand';
import { registerConsolidateCommands } from './consolidateCommand';
import { registerTeamCommands } from './teamCommands';
import { registerTeamServerCommands } from './teamServerCommands';

/** Every `engram.*` command; package.json contributes exactly these (an in-host test checks both ways). */
export function registerCommands(services: EngramServices): vscode.Disposable[] {
  return [
    ...registerRememberCommands(services),
    registerRecallCommand(services),
    ...registerLifecycleCommands(services),
    ...registerWorkspaceCommands(services),
    ...registerDriftCommands(services),
    ...registerExchangeCommands(services),
    registerMcpConfigCommand(services),
    ...registerViewCommands(services),
    ...registerMemoryEditCommands(services),
    registerFileMemoriesCommand(services),
    registerTidyMemoryCommand(services),
    ...registerConsolidateCommands(services),
    ...registerTeamCommands(services),
    ...registerTeamServerCommands(services),
  ];
}
