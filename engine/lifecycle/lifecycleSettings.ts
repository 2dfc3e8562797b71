import { z } from 'zod';
import type { SqlReader } from '../store/sqlAccess';
import { ARCHIVE_RULE } from './lifecycleFacts';
import type { ArchiveRule, LifecycleRules } from './lifecycleFacts';
import { DEFAULT_RETENTION, RETENTION_CURVES } from './retention';

/**
 * The lifecycle's settings (issue 21, section 1), with the seeds' defaults: whether episodes fade
 * and how fast, when a faded one is archived, and whether the background run also consolidates.
 *
 * Kept in the database, as the newest `lifecycle-settings` event, rather than in one process's
 * options: whichever process hosts the database (the editor, the MCP bridge, a CLI command) then
 * archives by the same rules, a change applies at the next run without a restart, and the ledger
 * says when the rules changed.
 */
export interface LifecycleSettings {
  /** Episodes and working notes fade with age; off, nothing fades and nothing is archived. @default true */
  decay: boolean;
  /** Days until a human-written episode keeps half its retention. @default 30 */
  halfLifeDays: number;
  /** The forgetting curve. @default 'huber' (seed 003) */
  curve: (typeof RETENTION_CURVES)[number];
  /** How much faster less trusted sources fade (lambda * (1 + kappa * (1 - trust))). @default 2 */
  kappa: number;
  /** Archived only when older than this (days). @default 90 */
  archiveAfterDays: number;
  /** ... and retained less than this. @default 0.15 */
  archiveBelowRetention: number;
  /** ... and less important than this. @default 0.3 */
  archiveBelowImportance: number;
  /** ... and recalled fewer times than this. @default 3 */
  archiveUnderAccesses: number;
  /** The host's timed lifecycle run also consolidates. @default false (summaries cost recall: docs/benchmarks.md) */
  consolidateInBackground: boolean;
  /** Minutes between the host's timed lifecycle runs. @default 15 */
  intervalMinutes: number;
}

export const DEFAULT_LIFECYCLE_SETTINGS: LifecycleSettings = {
  decay: true,
  halfLifeDays: DEFAULT_RETENTION.halfLifeDays,
  curve: DEFAULT_RETENTION.curve,
  kappa: DEFAULT_RETENTION.kappa,
  archiveAfterDays: ARCHIVE_RULE.afterDays,
  archiveBelowRetention: ARCHIVE_RULE.maxRetention,
  archiveBelowImportance: ARCHIVE_RULE.maxImportance,
  archiveUnderAccesses: ARCHIVE_RULE.maxAccesses,
  consolidateInBackground: false,
  intervalMinutes: 15,
};

const number = (min: number, max: number) => {
  const error = `must be a number from ${min} to ${max}`;
  return z.number({ error }).min(min, { error }).max(max, { error });
};
const whole = (min: number, max: number) =>
  number(min, max).int({ error: `must be a whole number from ${min} to ${max}` });

/**
 * Each setting's check, its message without the setting's name: the engine's one line names the
 * field (`halfLifeDays must be a number from 0.01 to 36500; got 0`), the editor names its setting.
 */
export const LIFECYCLE_SETTING_FIELDS = {
  decay: z.boolean({ error: 'must be true or false' }),
  halfLifeDays: number(0.01, 36_500),
  curve: z.enum(RETENTION_CURVES, { error: `must be one of ${RETENTION_CURVES.join(', ')}` }),
  kappa: number(0, 100),
  archiveAfterDays: number(0, 36_500),
  archiveBelowRetention: number(0, 1),
  archiveBelowImportance: number(0, 1),
  archiveUnderAccesses: whole(0, 1_000_000),
  consolidateInBackground: z.boolean({ error: 'must be true or false' }),
  intervalMinutes: number(1, 10_080),
} satisfies Record<keyof LifecycleSettings, z.ZodType>;

export const LIFECYCLE_SETTINGS_EVENT = 'lifecycle-settings';

/** The settings in force: the newest stored ones over the defaults (a field it lacks keeps its default). */
export function storedLifecycleSettings(reader: SqlReader): LifecycleSettings {
  const data = reader.value<string>(
    `SELECT data FROM events WHERE type = '${LIFECYCLE_SETTINGS_EVENT}' ORDER BY seq DESC LIMIT 1`,
  );
  if (data === undefined) return { ...DEFAULT_LIFECYCLE_SETTINGS };
  const stored = JSON.parse(data) as Record<string, unknown>;
  const settings = { ...DEFAULT_LIFECYCLE_SETTINGS };
  // A value a newer version wrote that this one does not accept keeps the default.
  for (const key of Object.keys(LIFECYCLE_SETTING_FIELDS) as Array<keyof LifecycleSettings>) {
    const parsed = LIFECYCLE_SETTING_FIELDS[key].safeParse(stored[key]);
    if (parsed.success) Object.assign(settings, { [key]: parsed.data });
  }
  return settings;
}

/** Whether anyone configured the settings in this database (hosts' own defaults apply until then). */
export function lifecycleSettingsConfigured(reader: SqlReader): boolean {
  return (
    reader.value<number>(`SELECT 1 FROM events WHERE type = '${LIFECYCLE_SETTINGS_EVENT}' LIMIT 1`) !==
    undefined
  );
}

/** What the retention and archive rules read (lifecycleFacts.ts). */
export function lifecycleRulesOf(settings: LifecycleSettings): LifecycleRules {
  const archive: ArchiveRule = {
    afterDays: settings.archiveAfterDays,
    maxRetention: settings.archiveBelowRetention,
    maxImportance: settings.archiveBelowImportance,
    maxAccesses: settings.archiveUnderAccesses,
  };
  return {
    decay: settings.decay,
    retention: {
      ...DEFAULT_RETENTION,
      curve: settings.curve,
      halfLifeDays: settings.halfLifeDays,
      kappa: settings.kappa,
    },
    archive,
  };
}

/** Whether two settings say the same (a change that changes nothing records no event). */
export function sameLifecycleSettings(a: LifecycleSettings, b: LifecycleSettings): boolean {
  return (Object.keys(DEFAULT_LIFECYCLE_SETTINGS) as Array<keyof LifecycleSettings>).every(
    (key) => a[key] === b[key],
  );
}
