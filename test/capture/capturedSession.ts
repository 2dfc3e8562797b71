import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { ingestSource } from '../../engine/capture/ingest';
import type { MemoryStore } from '../../engine/memory/memoryStore';
import { tempDir } from '../support/temp';
import { syntheticClaudeSession } from './syntheticSession';

/** A synthetic Claude Code session of `turns` turns from `startAt`, read into `store` as capture reads it. */
export async function captureSynthetic(
  store: MemoryStore,
  root: string,
  id: string,
  turns: number,
  startAt: string,
): Promise<void> {
  const file = path.join(tempDir(), `${id}.jsonl`);
  writeFileSync(file, syntheticClaudeSession(turns, root, id, startAt));
  await ingestSource(store, { agent: 'claude-code', path: file }, { root });
}
