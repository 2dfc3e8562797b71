import type { Profile } from './profiles';
import type { ToolDefinition } from './toolDefinition';
import { CODE_TOOLS } from './tools/codeTools';
import { COMPAT_TOOLS } from './tools/compatTools';
import { DRIFT_TOOLS } from './tools/driftTools';
import { MEMORY_ADMIN_TOOLS } from './tools/memoryAdminTools';
import { LIFECYCLE_TOOLS } from './tools/lifecycleTools';
import { MEMORY_GRAPH_TOOLS } from './tools/memoryGraphTools';
import { MEMORY_READ_TOOLS } from './tools/memoryReadTools';
import { MEMORY_WRITE_TOOLS } from './tools/memoryWriteTools';
import { TEAM_TOOLS } from './tools/teamTools';
import { whyTool } from './tools/whyTool';
import { skillsTool } from './tools/skillsTool';
import { contextLevelsTool } from './tools/contextLevelsTool';

/**
 * Every tool the bridge can serve, in the order clients list them. A new tool is one entry here:
 * its definition carries its schemas, hints and the profiles it belongs to.
 */
export const ALL_TOOLS: readonly ToolDefinition[] = [
  ...MEMORY_WRITE_TOOLS,
  ...MEMORY_READ_TOOLS,
  contextLevelsTool,
  ...MEMORY_GRAPH_TOOLS,
  ...MEMORY_ADMIN_TOOLS,
  ...LIFECYCLE_TOOLS,
  skillsTool,
  ...TEAM_TOOLS,
  ...CODE_TOOLS,
  whyTool,
  ...DRIFT_TOOLS,
  ...COMPAT_TOOLS,
];

export function toolsFor(profile: Profile): ToolDefinition[] {
  return ALL_TOOLS.filter((tool) => tool.profiles.includes(profile));
}
