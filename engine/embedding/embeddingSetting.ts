import { invalidInput } from '../errors';
import type { EmbeddingConfig } from './types';
import type { UseLiteAssets } from './useLiteAssets';

/** What a one-line setting cannot say: where the default model's files and downloaded models are. */
export interface EmbeddingSettingContext {
  useLiteAssets: () => UseLiteAssets;
  /** The user's model directory for `onnx:` models (see downloadModel). */
  modelDir: string;
  env: NodeJS.ProcessEnv;
}

export const EMBEDDING_SETTING_HELP =
  "'off' (default), 'use-lite' (shipped, offline), 'onnx:<hf-model>[#cls]', 'openai:<model>[@<base-url>]' or 'ollama:<model>[@<base-url>]'";

/**
 * Parses the embedding choice of `--embedding`, `ENGRAM_EMBEDDING` or the VS Code setting into a
 * provider configuration; null means no embeddings. API keys come from the environment only
 * (`ENGRAM_EMBEDDING_API_KEY`, else `OPENAI_API_KEY`), never from the setting text.
 */
export function parseEmbeddingSetting(
  setting: string,
  context: EmbeddingSettingContext,
): EmbeddingConfig | null {
  const text = setting.trim();
  // No model unless one is asked for: the shipped USE-lite added nothing to hybrid recall on
  // LoCoMo, LongMemEval or CoSQA and made loading 8x slower (docs/benchmarks.md, Retrieval).
  if (text === '' || text === 'off' || text === 'none' || text === 'default') return null;
  if (text === 'use-lite') return { kind: 'use-lite', assets: context.useLiteAssets() };
  const match = /^(onnx|openai|ollama):([^@#\s]+)(?:#(cls|mean))?(?:@(\S+))?$/.exec(text);
  if (!match) throw invalidInput(`embedding must be ${EMBEDDING_SETTING_HELP}; got "${text}"`);
  const [, kind, model, pooling, baseUrl] = match as unknown as [string, string, string, string?, string?];
  if (kind === 'onnx') {
    if (baseUrl)
      throw invalidInput(`an onnx model is loaded from disk and takes no @<base-url>; got "${text}"`);
    return { kind: 'onnx', model, modelDir: context.modelDir, pooling: pooling === 'cls' ? 'cls' : 'mean' };
  }
  if (pooling) throw invalidInput(`#${pooling} applies to onnx models only; got "${text}"`);
  if (kind === 'ollama') return { kind: 'ollama', model, baseUrl: baseUrl ?? 'http://127.0.0.1:11434' };
  const apiKey = context.env['ENGRAM_EMBEDDING_API_KEY'] || context.env['OPENAI_API_KEY'] || undefined;
  return {
    kind: 'openai',
    model,
    baseUrl: baseUrl ?? 'https://api.openai.com/v1',
    ...(apiKey ? { apiKey } : {}),
  };
}
