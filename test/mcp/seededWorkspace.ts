import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { syntheticMemories } from '../bench/syntheticMemories';
import { seededRandom } from '../support/seededRandom';
import { callTool, tempWorkspace } from './bridgeProcess';
import { connectBridge } from './inProcessBridge';

const KINDS = ['decision', 'fact', 'error-pattern', 'procedure', 'preference', 'negative'] as const;
const TAGS = ['architecture', 'build', 'testing', 'release', 'security', 'performance', 'ux'];
const MODULES = ['auth', 'billing', 'cache', 'search', 'sync', 'report', 'queue', 'profile'];

/** What a seeded workspace holds, for tools that take an id or a name. */
export interface SeededWorkspace {
  workspace: string;
  /** A memory with several versions and notes (memory_history, memory_get). */
  editedId: string;
  memoryIds: string[];
}

/** ~80 TypeScript files with exported functions and imports, so the code map has more than fits. */
function writeSources(workspace: string): void {
  for (const [m, module] of MODULES.entries()) {
    for (let f = 0; f < 10; f++) {
      const lines = [
        `import { ${MODULES[(m + 1) % MODULES.length]}Helper0 } from '../${MODULES[(m + 1) % MODULES.length]}/file0';`,
      ];
      for (let s = 0; s < 6; s++) {
        lines.push(
          `/** ${module} step ${s}: validates the request, loads the account and writes the audit trail. */`,
          `export async function ${module}Helper${f * 6 + s}(request: ${module[0]!.toUpperCase()}${module.slice(1)}Request, options: { retries: number; timeoutMs: number; audit?: boolean }): Promise<Result<${module}Record[]>> {`,
          `  return ${MODULES[(m + 1) % MODULES.length]}Helper0(request, options);`,
          '}',
        );
      }
      const file = path.join(workspace, 'src', module, `file${f}.ts`);
      mkdirSync(path.dirname(file), { recursive: true });
      writeFileSync(file, `${lines.join('\n')}\n`);
    }
  }
}

/**
 * A workspace of a few hundred memories (varied kinds, tags, long texts, one memory with many
 * versions and notes) and a scanned code index, written through a real bridge that is closed
 * before the tests start, so a test's own bridge finds everything on disk.
 */
export async function seededWorkspace(count = 300): Promise<SeededWorkspace> {
  const workspace = tempWorkspace();
  writeSources(workspace);
  const random = seededRandom(7);
  const bridge = await connectBridge(workspace, { name: 'seed' });
  try {
    const memoryIds: string[] = [];
    for (const [i, text] of syntheticMemories(count, 3).entries()) {
      const long = i % 10 === 0 ? ` ${syntheticMemories(6, i).join(' ')}` : '';
      const { memory } = await callTool<{ memory: { id: string } }>(bridge.client, 'memory_remember', {
        content: `${text}${long}`,
        kind: KINDS[i % KINDS.length],
        tags: [TAGS[i % TAGS.length]!, TAGS[Math.floor(random() * TAGS.length)]!],
        importance: Math.round(random() * 100) / 100,
      });
      memoryIds.push(memory.id);
    }
    const editedId = memoryIds[0]!;
    for (let v = 0; v < 12; v++) {
      await callTool(bridge.client, 'memory_edit', {
        id: editedId,
        content: `${syntheticMemories(4, 100 + v).join(' ')} (version ${v})`,
      });
      await callTool(bridge.client, 'memory_annotate', {
        id: editedId,
        text: `Reviewed again in round ${v}: ${syntheticMemories(2, 200 + v).join(' ')}`,
      });
    }
    await callTool(bridge.client, 'code_scan');
    return { workspace, editedId, memoryIds };
  } finally {
    await bridge.close();
  }
}
