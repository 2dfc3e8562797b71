import type { MemoryStore } from '../memory/memoryStore';
import type { Actor } from '../memory/types';
import {
  LIFECYCLE_SETTINGS_EVENT,
  lifecycleRulesOf,
  sameLifecycleSettings,
  storedLifecycleSettings,
} from './lifecycleSettings';
import type { LifecycleSettings } from './lifecycleSettings';
import type { LifecycleRules } from './lifecycleFacts';

/**
 * The lifecycle settings as the process hosting the database holds them: read from the ledger once
 * (the newest `lifecycle-settings` event), then kept here. Every change goes through this host
 * (the `configureLifecycle` method), so the copy stays current; listeners (the timed run) hear it.
 */
export class HostLifecycleSettings {
  private current: LifecycleSettings | undefined;
  private readonly listeners = new Set<(settings: LifecycleSettings) => void>();

  constructor(private readonly store: MemoryStore) {}

  get(): LifecycleSettings {
    this.current ??= this.store.read((r) => storedLifecycleSettings(r));
    return this.current;
  }

  rules(): LifecycleRules {
    return lifecycleRulesOf(this.get());
  }

  /**
   * Merges `changes` over the settings in force and records the result as an event, unless it
   * changes nothing; returns the settings now in force and whether they changed.
   */
  update(
    changes: Partial<LifecycleSettings>,
    actor: Actor = {},
  ): { settings: LifecycleSettings; changed: boolean } {
    const before = this.get();
    const settings = { ...before, ...definedOnly(changes) };
    if (sameLifecycleSettings(before, settings)) return { settings, changed: false };
    this.store.write((tx, now) =>
      this.store.ledger.append(tx, now, {
        type: LIFECYCLE_SETTINGS_EVENT,
        agent: actor.agent ?? null,
        session: actor.session ?? null,
        data: { ...settings },
      }),
    );
    this.current = settings;
    for (const listener of this.listeners) listener(settings);
    return { settings, changed: true };
  }

  onChange(listener: (settings: LifecycleSettings) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}

function definedOnly(changes: Partial<LifecycleSettings>): Partial<LifecycleSettings> {
  return Object.fromEntries(Object.entries(changes).filter(([, value]) => value !== undefined));
}
