import * as vscode from 'vscode';
import { GROUP_BY } from './memoryGroups';
import type { GroupBy } from './memoryGroups';

/** The MCP bridge's tool profiles (engine/mcp/profiles.ts). */
export const MCP_PROFILES = ['full', 'core', 'compat'] as const;
export type McpProfile = (typeof MCP_PROFILES)[number];

export const EMBEDDING_PROVIDERS = ['use-lite', 'off', 'onnx', 'openai', 'ollama'] as const;
export type EmbeddingProviderName = (typeof EMBEDDING_PROVIDERS)[number];

/** Every `engram.*` setting, typed, with the defaults package.json declares. */
export interface EngramSettings {
  /** '' = `<workspace>/.engram/memory.db`; 'user' = the user database; else a file path. */
  databaseLocation: string;
  embeddingProvider: EmbeddingProviderName;
  embeddingModel: string;
  embeddingEndpoint: string;
  scanExclude: string[];
  scanMaxFileBytes: number;
  autoScan: boolean;
  driftAutoFix: boolean;
  mcpToolProfile: McpProfile;
  contextBudget: number;
  editorHints: boolean;
  /** How the Memories view groups its rows. */
  memoriesGroupBy: GroupBy;
  /** '' = no team server; else its URL (the token is in SecretStorage: extension/teamServerLink.ts). */
  teamUrl: string;
  /** engram.lifecycle.*: decay, retention curve and archive rule, the background run (engine/lifecycle/lifecycleSettings.ts). */
  lifecycle: LifecycleSettingValues;
  /**
   * engram.lifecycle.summaries: who writes Consolidate Now's summaries. Not a LifecycleSettingValue:
   * the engine never asks a model by itself (its timed run stays extractive), so only the command
   * reads it (extension/commands/consolidateCommand.ts).
   */
  lifecycleSummaries: SummaryWriter;
  /** engram.lifecycle.summaryModel: `vendor` or `vendor/family` of a VS Code chat model; '' = any. */
  lifecycleSummaryModel: string;
}

export const SUMMARY_WRITERS = ['extractive', 'model'] as const;
export type SummaryWriter = (typeof SUMMARY_WRITERS)[number];

/** The lifecycle settings as the user wrote them, checked by the engine (configureLifecycle). */
export interface LifecycleSettingValues {
  decay: unknown;
  halfLifeDays: unknown;
  curve: unknown;
  kappa: unknown;
  archiveAfterDays: unknown;
  archiveBelowRetention: unknown;
  archiveBelowImportance: unknown;
  archiveUnderAccesses: unknown;
  consolidateInBackground: unknown;
  intervalMinutes: unknown;
}

export function readSettings(): EngramSettings {
  const c = vscode.workspace.getConfiguration('engram');
  const oneOf = <T extends string>(value: string | undefined, allowed: readonly T[], fallback: T): T =>
    allowed.includes(value as T) ? (value as T) : fallback;
  return {
    databaseLocation: c.get<string>('database.location', '').trim(),
    embeddingProvider: oneOf(c.get<string>('embedding.provider'), EMBEDDING_PROVIDERS, 'off'),
    embeddingModel: c.get<string>('embedding.model', '').trim(),
    embeddingEndpoint: c.get<string>('embedding.endpoint', '').trim(),
    scanExclude: c.get<string[]>('scan.exclude', []),
    scanMaxFileBytes: c.get<number>('scan.maxFileSize', 1024 * 1024),
    autoScan: c.get<boolean>('scan.auto', true),
    driftAutoFix: c.get<boolean>('drift.autoFix', false),
    mcpToolProfile: oneOf(c.get<string>('mcp.toolProfile'), MCP_PROFILES, 'full'),
    contextBudget: c.get<number>('context.budget', 1500),
    editorHints: c.get<boolean>('editor.memoryHints', true),
    memoriesGroupBy: oneOf(c.get<string>('memories.groupBy'), GROUP_BY, 'kind'),
    teamUrl: c.get<string>('team.url', '').trim(),
    lifecycle: readLifecycleSettings(c),
    lifecycleSummaries: oneOf(c.get<string>('lifecycle.summaries'), SUMMARY_WRITERS, 'extractive'),
    lifecycleSummaryModel: c.get<string>('lifecycle.summaryModel', '').trim(),
  };
}

/**
 * Read as written, not coerced: a wrong value (a string where a number goes, a half-life of 0)
 * is refused by the engine with a line naming it, rather than silently replaced by the default.
 */
function readLifecycleSettings(c: vscode.WorkspaceConfiguration): LifecycleSettingValues {
  return {
    decay: c.get('lifecycle.decay', true),
    halfLifeDays: c.get('lifecycle.halfLifeDays', 30),
    curve: c.get('lifecycle.curve', 'huber'),
    kappa: c.get('lifecycle.kappa', 2),
    archiveAfterDays: c.get('lifecycle.archiveAfterDays', 90),
    archiveBelowRetention: c.get('lifecycle.archiveBelowRetention', 0.15),
    archiveBelowImportance: c.get('lifecycle.archiveBelowImportance', 0.3),
    archiveUnderAccesses: c.get('lifecycle.archiveUnderAccesses', 3),
    consolidateInBackground: c.get('lifecycle.consolidateInBackground', false),
    intervalMinutes: c.get('lifecycle.intervalMinutes', 15),
  };
}

/**
 * The engine's one-line embedding choice (engine/embedding/embeddingSetting.ts) from the three
 * settings a user edits: provider, model and endpoint.
 */
export function embeddingSettingText(s: EngramSettings): string {
  if (s.embeddingProvider === 'use-lite' || s.embeddingProvider === 'off') return s.embeddingProvider;
  const model = s.embeddingModel || (s.embeddingProvider === 'openai' ? 'text-embedding-3-small' : '');
  const endpoint = s.embeddingEndpoint && s.embeddingProvider !== 'onnx' ? `@${s.embeddingEndpoint}` : '';
  return `${s.embeddingProvider}:${model}${endpoint}`;
}

/** Settings whose change needs the engine reopened (they are fixed when it opens). */
export const ENGINE_SETTINGS = [
  'engram.database.location',
  'engram.embedding',
  'engram.scan.exclude',
  'engram.scan.maxFileSize',
];
