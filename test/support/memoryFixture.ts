import type { Memory } from '../../engine/memory/types';

/**
 * A whole `Memory` row for pure tests of what reads one (presentation, ranking): an active, shared,
 * human semantic fact recorded at time 0, with whatever the test sets on top.
 */
export function memoryFixture(overrides: Partial<Memory> = {}): Memory {
  return {
    id: 'm_x',
    version: 1,
    layer: 'semantic',
    kind: 'fact',
    content: 'x',
    context: null,
    tags: [],
    importance: 0.5,
    trust: 'human',
    critical: false,
    scope: 'shared',
    agent: null,
    session: null,
    conflictKey: null,
    contentHash: 'h',
    source: null,
    status: 'active',
    statusReason: null,
    supersededBy: null,
    validFrom: 0,
    validTo: null,
    recordedAt: 0,
    supersededAt: null,
    change: 'created',
    pinned: false,
    accessCount: 0,
    lastAccessedAt: null,
    confirmations: 0,
    ...overrides,
  };
}
