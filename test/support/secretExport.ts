import { openTestHost } from './host';
import type { FakeSecret } from './fakeSecrets';

/** Placeholders an Engram export is written with, then swapped for the secrets. */
const placeholder = (i: number) => `zqxplace${i}zqx`;

/**
 * An Engram export (JSON Lines) holding the secrets in clear in every field that can hold text, as
 * another tool or an older Engram could have written it.
 */
export async function engramExportWith(secrets: readonly FakeSecret[]): Promise<string> {
  return withSecrets(await engramExport(secrets.length), secrets);
}

/** The official MCP memory server's memory.jsonl with the secrets in names, types and observations. */
export function mcpMemoryWith(secrets: readonly FakeSecret[]): string {
  const lines = secrets.flatMap((s, i) => [
    JSON.stringify({
      type: 'entity',
      name: s.text,
      entityType: 'credential',
      observations: [`uses ${s.text}`],
    }),
    JSON.stringify({ type: 'entity', name: `Service ${i}`, entityType: s.text, observations: [] }),
    JSON.stringify({ type: 'relation', from: s.text, to: `Other ${s.text}`, relationType: s.text }),
  ]);
  return `${lines.join('\n')}\n`;
}

/**
 * An Engram export of a database that used placeholder i wherever a secret could be: content,
 * context, tags, conflict key, annotation, invalidation reason (versions and events), entity names.
 */
async function engramExport(count: number): Promise<string> {
  const scratch = await openTestHost();
  try {
    for (let i = 0; i < count; i++) {
      const p = placeholder(i);
      const { memory } = await scratch.call('remember', {
        content: `note ${p} here`,
        context: `context ${p}`,
        tags: [p],
        conflictKey: `key ${p}`,
      });
      await scratch.call('annotate', { id: memory.id, text: `annotation ${p}` });
      await scratch.call('invalidate', { id: memory.id, reason: `reason ${p}` });
      await scratch.call('graphCreateEntities', { entities: [{ name: p, entityType: p, observations: [] }] });
    }
    return (await scratch.call('export', { format: 'jsonl' })).text!;
  } finally {
    await scratch.host.close();
  }
}

/** The export as another tool (or an older Engram) would have written it with the secrets in clear. */
function withSecrets(exported: string, secrets: readonly FakeSecret[]): string {
  // Descending, so that placeholder 1 does not match inside placeholder 10.
  const swap = (text: string, lower: boolean) =>
    secrets.reduceRight(
      (out, s, i) => out.replaceAll(placeholder(i), lower ? s.text.toLowerCase() : s.text),
      text,
    );
  // Texts that hold JSON (tags, event data) get the secret inside, escaped at their own level.
  const field = (key: string, value: unknown): unknown => {
    if (typeof value !== 'string') return value;
    if (value.startsWith('[') || value.startsWith('{'))
      return JSON.stringify(JSON.parse(value, (_, inner: unknown) => field('', inner)));
    return swap(value, key === 'key' || key === 'alias'); // lower-cased names
  };
  return exported
    .split('\n')
    .map((line) =>
      line === '' ? line : JSON.stringify(JSON.parse(line, (key, value: unknown) => field(key, value))),
    )
    .join('\n');
}
