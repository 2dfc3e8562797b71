import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { importsUnder } from '../support/importGraph';
import type { ModuleImport } from '../support/importGraph';
import { tempDir } from '../support/temp';

/**
 * The extension sees the engine through its public surface, engine/index.ts (issue 15, item 5),
 * so what the engine keeps to itself can move without touching extension/. The one other door is
 * the bundle seam: extension/engineBundle.ts requires engine/bin/engineCore.ts, which the build
 * keeps external so the extension, the CLI and the MCP bridge share one dist/engineCore.js.
 * Type-only imports count too: a type from deep inside the engine ties the extension to its layout.
 */
const ENGINE_SURFACE = 'engine/index.ts';
const BUNDLE_SEAM = { from: 'extension/engineBundle.ts', to: 'engine/bin/engineCore.ts' };

function pastTheSurface(imports: readonly ModuleImport[]): string[] {
  return imports
    .filter((i) => i.to.startsWith('engine/') && i.to !== ENGINE_SURFACE)
    .filter((i) => !(i.from === BUNDLE_SEAM.from && i.to === BUNDLE_SEAM.to))
    .map((i) => `${i.from} -> ${i.to}`);
}

describe('extension/ and the engine', () => {
  it('extension/ imports the engine only through engine/index.ts', () => {
    assert.deepEqual(pastTheSurface(importsUnder(['extension'])), []);
  });

  it('the check itself sees a type-only import past the surface', () => {
    const root = tempDir();
    mkdirSync(path.join(root, 'engine', 'memory'), { recursive: true });
    mkdirSync(path.join(root, 'extension'));
    writeFileSync(path.join(root, 'engine', 'index.ts'), "export type { Memory } from './memory/types';\n");
    writeFileSync(
      path.join(root, 'engine', 'memory', 'types.ts'),
      'export interface Memory { id: string }\n',
    );
    writeFileSync(
      path.join(root, 'extension', 'a.ts'),
      "import type { Memory } from '../engine/memory/types';\nimport type { Memory as M } from '../engine/index';\nexport type Both = [Memory, M];\n",
    );
    assert.deepEqual(pastTheSurface(importsUnder(['extension'], root)), [
      'extension/a.ts -> engine/memory/types.ts',
    ]);
  });
});
