import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { extractClaims } from '../../engine/drift/claimExtractor';
import { sectionKey, sectionsOf } from '../../engine/drift/anchorClaims';
import { driftHost, memoryIn } from './driftHost';
import { GitRepository } from './gitRepository';

const T1 = '2025-01-10T12:00:00Z';
const BETWEEN = '2025-02-01T00:00:00Z';
const T2 = '2025-03-01T12:00:00Z';

const GUIDE_BEFORE = [
  '# Guide',
  '',
  '## Running in the browser',
  '',
  '### `--watch, -w`',
  '',
  'Desktop notification support',
  '----------------------------',
  '',
  '<a name="legacy-api"></a>',
  'Text.',
].join('\n');

/**
 * A memory taken from a document links to its sections (`[browser support](#running-in-the-
 * browser)`): each link claims its section exists. Section names are compared by letters and
 * digits, since each site generator slugs `--watch, -w` its own way.
 */
describe('drift: links to a section of the memory’s own document', () => {
  it('extracts same-document section links from prose, not from code examples', () => {
    const text = [
      'Features: [browser support](#running-in-the-browser), [watch](#-watch-w).',
      '```js',
      "const url = '[x](#not-a-claim)'",
      '```',
    ].join('\n');
    const claims = extractClaims(text).filter((c) => c.kind === 'anchor');
    assert.deepEqual(
      claims.map((c) => c.subject),
      ['#running-in-the-browser', '#-watch-w'],
    );
  });

  it('knows sections by ATX and setext headings and explicit ids, whatever the slug style', () => {
    const sections = sectionsOf(GUIDE_BEFORE);
    for (const anchor of [
      'running-in-the-browser',
      '-watch-w',
      '--watch--w',
      'desktop-notification-support',
      'legacy-api',
    ])
      assert.ok(sections.has(sectionKey(anchor)), anchor);
    assert.ok(!sections.has(sectionKey('growl')));
  });

  it('a removed section asks for review, with the commit that removed it; kept ones hold; other documents unverifiable', async () => {
    const repo = new GitRepository();
    repo.commit('initial', T1, {
      write: { 'docs/guide.md': GUIDE_BEFORE, 'index.js': 'module.exports = 1;\n' },
    });
    const removing = repo.commit('Drop desktop notifications', T2, {
      write: { 'docs/guide.md': GUIDE_BEFORE.replace(/Desktop notification support\n-+\n/, '') },
    });
    const test = await driftHost(repo.root);
    await test.call('scan', { tokens: false });
    const remember = async (file: string) =>
      (
        await test.call('remember', {
          content:
            'Mocha has [browser support](#running-in-the-browser) and [notifications](#desktop-notification-support).',
          validFrom: BETWEEN,
          source: { file },
          dedupe: false,
        })
      ).memory.id;
    const fromGuide = await remember('docs/guide.md');
    const fromCode = await remember('index.js');

    const report = await test.call('drift', { all: true });
    const claims = memoryIn(report, fromGuide).claims;
    const gone = claims.find((c) => c.subject === '#desktop-notification-support');
    assert.equal(gone?.verdict, 'stale');
    assert.equal(gone?.evidence.commit?.hash, removing);
    // A link into the memory's own source document is navigation, not a claim about the project:
    // labelled so on three development repositories (mocha, winston, http-proxy-middleware).
    assert.equal(gone?.evidence.doubtful, true);
    assert.notEqual(memoryIn(report, fromGuide).status, 'stale');
    assert.equal(claims.find((c) => c.subject === '#running-in-the-browser')?.verdict, 'ok');
    const other = report.memories.find((m) => m.id === fromCode);
    assert.ok(
      !other || other.status === 'unverifiable',
      'a section link of a memory not from that document proves nothing',
    );
  });

  it('a section gone from a document that lost most of its sections (moved to docs/) asks for review only', async () => {
    const sections = ['Install', 'Usage', 'API', 'Options', 'preferLocal', 'Result', 'Errors', 'FAQ'];
    const readme = sections.map((s) => `## ${s}\n\nText about ${s}.\n`).join('\n');
    const repo = new GitRepository();
    repo.commit('initial', T1, { write: { 'readme.md': readme, 'index.js': 'module.exports = 1;\n' } });
    repo.commit('Move the API reference to docs/', T2, {
      write: {
        'readme.md': '## Install\n\nText.\n\n## Usage\n\nSee [the docs](docs/api.md).\n',
        'docs/api.md': sections
          .slice(2)
          .map((s) => `## options.${s}\n`)
          .join('\n'),
      },
    });
    const test = await driftHost(repo.root);
    await test.call('scan', { tokens: false });
    const { memory } = await test.call('remember', {
      content: 'Requires [`preferLocal`](#preferlocal) to be `true`.',
      validFrom: BETWEEN,
      source: { file: 'readme.md' },
      dedupe: false,
    });
    const report = await test.call('drift', { all: true });
    const entry = report.memories.find((m) => m.id === memory.id);
    const claim = entry?.claims.find((c) => c.subject === '#preferlocal');
    assert.equal(claim?.verdict, 'stale', JSON.stringify(entry));
    assert.equal(claim?.evidence.doubtful, true, 'a reorganised document says nothing about the project');
    assert.notEqual(entry?.status, 'stale');
  });

  it('a link to `/docs/x.md` is the repository’s docs/x.md, as GitHub reads it; /etc/hosts stays refused', async () => {
    const repo = new GitRepository();
    repo.commit('initial', T1, { write: { 'docs/help.md': '# Help\n', 'docs/old.md': '# Old\n' } });
    const deleting = repo.commit('Remove the old page', T2, { remove: ['docs/old.md'] });
    const test = await driftHost(repo.root);
    await test.call('scan', { tokens: false });
    const id = (
      await test.call('remember', {
        content: 'See [help](/docs/help.md), [old](/docs/old.md) and `/etc/hosts`.',
        validFrom: BETWEEN,
        dedupe: false,
      })
    ).memory.id;
    const claims = memoryIn(await test.call('drift', { all: true }), id).claims;
    assert.equal(claims.find((c) => c.subject === '/docs/help.md')?.verdict, 'ok');
    const old = claims.find((c) => c.subject === '/docs/old.md');
    assert.equal(old?.verdict, 'stale');
    assert.equal(old?.evidence.commit?.hash, deleting);
    const hosts = claims.find((c) => c.subject === '/etc/hosts');
    assert.ok(!hosts || hosts.verdict === 'unverifiable');
  });
});
