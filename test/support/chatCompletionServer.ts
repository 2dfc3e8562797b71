import { createServer } from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A real HTTP server on 127.0.0.1 speaking the OpenAI chat-completions API: the stand-in for a
 * paid language model (the one part tests may fake). `answer` decides each reply from the request;
 * the requests are kept for the test to inspect what was sent.
 */
export interface ChatRequest {
  authorization: string | undefined;
  path: string;
  body: { model?: string; messages?: Array<{ role: string; content: string }>; max_tokens?: number };
}

/** A reply: a completion's text, an HTTP status with a body, raw bytes, or no answer at all. */
export type ChatReply = { text: string } | { status: number; body: string } | { raw: string } | 'hang';

export interface ChatCompletionServer {
  url: string;
  requests: ChatRequest[];
  answer: (request: ChatRequest) => ChatReply;
  close(): Promise<void>;
}

export async function startChatCompletionServer(
  answer: (request: ChatRequest) => ChatReply,
): Promise<ChatCompletionServer> {
  const hanging = new Set<ServerResponse>();
  const state: ChatCompletionServer = {
    url: '',
    requests: [],
    answer,
    close: () =>
      new Promise((resolve) => {
        for (const response of hanging) response.destroy();
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
  const server = createServer((request, response) => void handle(request, response));
  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const chat: ChatRequest = {
      authorization: request.headers.authorization,
      path: request.url ?? '',
      body: JSON.parse(await readBody(request)) as ChatRequest['body'],
    };
    state.requests.push(chat);
    const reply = state.answer(chat);
    if (reply === 'hang') {
      hanging.add(response);
      return;
    }
    if ('status' in reply) {
      response.writeHead(reply.status, { 'content-type': 'application/json' });
      response.end(reply.body);
      return;
    }
    response.writeHead(200, { 'content-type': 'application/json' });
    if ('raw' in reply) {
      response.end(reply.raw);
      return;
    }
    response.end(
      JSON.stringify({
        id: 'chatcmpl-test',
        object: 'chat.completion',
        model: `${chat.body.model ?? 'model'}-served`,
        choices: [{ index: 0, message: { role: 'assistant', content: reply.text }, finish_reason: 'stop' }],
      }),
    );
  }
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  state.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  return state;
}

/** The body of a request, as text. */
export function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve) => {
    let text = '';
    request.setEncoding('utf8');
    request.on('data', (chunk: string) => (text += chunk));
    request.on('end', () => resolve(text));
  });
}
