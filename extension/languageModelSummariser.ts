import * as vscode from 'vscode';
import { summaryPrompt } from '../engine/index';
import type { Summariser, SummaryRequest, WrittenSummary } from '../engine/index';

/**
 * Model-written consolidation summaries through VS Code's Language Model API (issue 21 section
 * 3.3: "the VS Code LM API"): the chat models the user already has in VS Code (GitHub Copilot's,
 * or any extension's that registers one), chosen by `engram.lifecycle.summaryModel`. The engine
 * never sees `vscode`: it is handed a `Summariser` (engine/lifecycle/summariser.ts) and does the
 * rest as for the other providers: the texts it sends are already redacted, and what comes back
 * is checked (length, entities, the members unchanged) and redacted again before it is stored.
 */

/** Shown by VS Code when it asks the user whether Engram may use a model (Copilot's consent). */
const JUSTIFICATION =
  'Engram: Consolidate Now asks a language model to summarise the memories it merges (engram.lifecycle.summaries is "model").';

/**
 * `engram.lifecycle.summaryModel` as a selector: `vendor` or `vendor/family` (e.g. `copilot` or
 * `copilot/gpt-4o`); empty selects among every model VS Code offers.
 */
export function summaryModelSelector(setting: string): vscode.LanguageModelChatSelector {
  const [vendor, ...family] = setting.trim().split('/');
  if (!vendor) return {};
  return family.length > 0 ? { vendor, family: family.join('/') } : { vendor };
}

/**
 * The first chat model the setting selects, as a Summariser; or why there is none, which every
 * cluster then records as the reason it kept its extractive gist.
 */
export async function languageModelSummariser(
  setting: string,
): Promise<Summariser | { unavailable: string }> {
  const models = await vscode.lm.selectChatModels(summaryModelSelector(setting));
  const model = models[0];
  if (model) return chatModelSummariser(model);
  return {
    unavailable: setting.trim()
      ? `no VS Code language model matches engram.lifecycle.summaryModel "${setting.trim()}"`
      : 'no VS Code language model is available (a chat model extension, such as GitHub Copilot, offers one)',
  };
}

/**
 * One model as a Summariser. The engine's timeout (60 s) aborts `signal`, which cancels the
 * request; the answer is read only until it is well past the limit (the engine then refuses it as
 * over the limit, with the length), so a runaway model is not read to its end.
 */
export function chatModelSummariser(model: vscode.LanguageModelChat): Summariser {
  const name = `${model.vendor}/${model.id}`;
  return {
    provider: 'vscode-lm',
    async summarise(request: SummaryRequest, signal: AbortSignal): Promise<WrittenSummary> {
      const { system, user } = summaryPrompt(request);
      const cancel = new vscode.CancellationTokenSource();
      const stop = () => cancel.cancel();
      signal.addEventListener('abort', stop);
      if (signal.aborted) stop();
      try {
        // The API has no system role: the instruction goes first, as a user message of its own.
        const response = await model.sendRequest(
          [vscode.LanguageModelChatMessage.User(system), vscode.LanguageModelChatMessage.User(user)],
          { justification: JUSTIFICATION },
          cancel.token,
        );
        let text = '';
        for await (const part of response.text) {
          text += part;
          if (text.length > 2 * request.maxChars) break;
        }
        return { text, model: name };
      } catch (error) {
        throw new Error(failureOf(error), { cause: error });
      } finally {
        signal.removeEventListener('abort', stop);
        cancel.cancel();
        cancel.dispose();
      }
    },
  };
}

/**
 * One line: a refusal (the user declined the consent, or the model's provider blocked the
 * request) says so with the API's code; anything else is the model's own message.
 */
function failureOf(error: unknown): string {
  const message = (error instanceof Error ? error.message : String(error)).replace(/\s+/g, ' ').trim();
  if (error instanceof vscode.LanguageModelError) {
    const refused =
      error.code === vscode.LanguageModelError.NoPermissions.name ||
      error.code === vscode.LanguageModelError.Blocked.name;
    return `${refused ? 'refused' : 'failed'} (${error.code || 'LanguageModelError'}): ${message || 'no message'}`;
  }
  return message || 'failed';
}
