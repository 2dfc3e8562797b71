import * as vscode from 'vscode';

/**
 * A chat model registered through VS Code's Language Model API (vendor `engram-test`), loaded as
 * a second development extension beside Engram (test/vscode/lifecycleHost.test.ts): the one part
 * of the model-summary tests that is a stand-in, as the HTTP server is for the endpoint. The test
 * reaches it through the exports: `answer` decides each reply from the prompt's text (a string,
 * or an Error to throw), and `prompts` keeps what was sent.
 */
export interface ChatModelFixture {
  answer: (prompt: string) => string | Error;
  prompts: string[];
}

export const MODEL_ID = 'echo-1';

export function activate(context: vscode.ExtensionContext): ChatModelFixture {
  const fixture: ChatModelFixture = { answer: () => new Error('no answer set'), prompts: [] };
  const model: vscode.LanguageModelChatInformation = {
    id: MODEL_ID,
    name: 'Engram test model',
    family: 'engram-test-family',
    version: '1',
    maxInputTokens: 100_000,
    maxOutputTokens: 4_000,
    capabilities: {},
  };
  context.subscriptions.push(
    vscode.lm.registerLanguageModelChatProvider('engram-test', {
      provideLanguageModelChatInformation: () => [model],
      provideLanguageModelChatResponse: async (_model, messages, _options, progress) => {
        const prompt = messages.map((message) => textOf(message.content)).join('\n\n');
        fixture.prompts.push(prompt);
        const reply = fixture.answer(prompt);
        if (reply instanceof Error) throw reply;
        // In two parts, as a streaming model sends it.
        const half = Math.floor(reply.length / 2);
        progress.report(new vscode.LanguageModelTextPart(reply.slice(0, half)));
        progress.report(new vscode.LanguageModelTextPart(reply.slice(half)));
        return Promise.resolve();
      },
      provideTokenCount: (_model, text) =>
        Promise.resolve(Math.ceil((typeof text === 'string' ? text : textOf(text.content)).length / 4)),
    }),
  );
  return fixture;
}

function textOf(parts: ReadonlyArray<unknown>): string {
  return parts.map((part) => (part instanceof vscode.LanguageModelTextPart ? part.value : '')).join('');
}
