import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';

interface SettingsGroup {
  title: string;
  order: number;
  properties: Record<string, { order?: number }>;
}

const manifest = JSON.parse(readFileSync(path.join(__dirname, '..', '..', 'package.json'), 'utf8')) as {
  contributes: { configuration: SettingsGroup[] | SettingsGroup };
};

/**
 * The Settings editor lists one group's settings alphabetically unless each has an `order`: the
 * embedding model came before its provider, and scanning, drift and agents were mixed. Each group
 * is a topic, in the order a user meets it, and within a group the choice comes before its details.
 */
describe('settings are grouped by topic and ordered', () => {
  const groups = Array.isArray(manifest.contributes.configuration)
    ? manifest.contributes.configuration
    : [manifest.contributes.configuration];

  it('every group has a title under Engram and an order; every setting has an order in its group', () => {
    assert.ok(groups.length > 1, 'settings are split into topics');
    groups.forEach((group, i) => {
      assert.match(group.title, /^Engram: /);
      assert.equal(group.order, i);
      Object.entries(group.properties).forEach(([key, setting], j) => assert.equal(setting.order, j, key));
    });
  });

  it('the embedding provider comes before the model and the endpoint it needs', () => {
    const embeddings = groups.find((g) => Object.keys(g.properties).includes('engram.embedding.provider'));
    assert.deepEqual(Object.keys(embeddings?.properties ?? {}), [
      'engram.embedding.provider',
      'engram.embedding.model',
      'engram.embedding.endpoint',
    ]);
  });

  it('each topic holds only its own settings', () => {
    for (const group of groups) {
      const topics = new Set(Object.keys(group.properties).map((key) => key.split('.')[1]));
      const allowed = group.title === 'Engram: Agents and Chat' ? new Set(['mcp', 'context']) : undefined;
      if (allowed)
        assert.deepEqual(
          [...topics].filter((t) => !allowed.has(t!)),
          [],
          group.title,
        );
      else assert.equal(topics.size, 1, `${group.title}: ${[...topics].join(', ')}`);
    }
  });
});
