import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { importCycles, importsUnder, mutualImports } from '../support/importGraph';
import { tempDir } from '../support/temp';

/**
 * The memory store holds the write rules only; what consumes it (the code workspace, the vectors,
 * the recall caches) hangs off the engine context (engine/api/engineContext.ts). These cycles
 * (issue 15, item 3) came from the store holding its own consumers: type-only imports count, as
 * they tie a layer to another's concrete class all the same.
 */
const STORE = 'engine/memory/memoryStore.ts';
/** What the store held for others (the vectors moved to engine/vectors/ with them). */
const CONSUMERS =
  /^engine\/(code|vectors)\/|memoryVectors\.ts$|^engine\/retrieval\/(entityWeights|memoryGraph)\.ts$/;
const STORE_LAYERS = /^engine\/(memory|retrieval)\/|^engine\/code\/(codeWorkspace|codebaseMemories)\.ts$/;

describe('the memory store and its consumers', () => {
  const imports = importsUnder(['engine']);

  it('no import cycle runs through engine/memory, engine/retrieval or the code workspace', () => {
    assert.deepEqual(
      importCycles(imports).filter((cycle) => cycle.some((module) => STORE_LAYERS.test(module))),
      [],
    );
  });

  it('the store imports none of its consumers: recall caches, code workspace, vectors', () => {
    assert.deepEqual(
      imports
        .filter((i) => i.from === STORE)
        .map((i) => i.to)
        .filter((to) => CONSUMERS.test(to)),
      [],
    );
  });

  it('engine/memory imports nothing from engine/retrieval: both use the lexical index in engine/lexical', () => {
    assert.deepEqual(
      imports
        .filter((i) => i.from.startsWith('engine/memory/') && i.to.startsWith('engine/retrieval/'))
        .map((i) => `${i.from} -> ${i.to}`),
      [],
    );
  });

  it('retrieval reads through its own sources interface, not the store class', () => {
    assert.deepEqual(
      imports.filter((i) => i.from.startsWith('engine/retrieval/') && i.to === STORE).map((i) => i.from),
      [],
    );
  });

  it('the check itself sees a cycle made of a type-only import', () => {
    const root = tempDir();
    mkdirSync(path.join(root, 'src'));
    writeFileSync(
      path.join(root, 'src', 'store.ts'),
      "import type { Reader } from './reader';\nexport let r: Reader;\n",
    );
    writeFileSync(
      path.join(root, 'src', 'reader.ts'),
      "import { r } from './store';\nexport type Reader = typeof r;\n",
    );
    const planted = importsUnder(['src'], root);
    assert.deepEqual(importCycles(planted), [['src/reader.ts', 'src/store.ts']]);
    assert.deepEqual(mutualImports(planted), ['src/reader.ts <-> src/store.ts']);
  });
});
