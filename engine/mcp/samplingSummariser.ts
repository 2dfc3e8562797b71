import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { MODEL_SUMMARY_RULE, summaryPrompt } from '../lifecycle/summariser';
import type { Summariser, SummaryRequest, WrittenSummary } from '../lifecycle/summariser';

/**
 * A summariser that asks the bridge's client to sample its own model (MCP `sampling/createMessage`),
 * for a client that declared the `sampling` capability: the client (and its user) decides which
 * model answers and may refuse; its refusal or error is the cluster's fallback reason. No context
 * of the client's other servers is asked for (`includeContext: none`).
 */
export function samplingSummariser(server: Server): Summariser {
  return {
    provider: 'mcp-sampling',
    async summarise(request: SummaryRequest, signal: AbortSignal): Promise<WrittenSummary> {
      const { system, user } = summaryPrompt(request);
      const result = await server.createMessage(
        {
          messages: [{ role: 'user', content: { type: 'text', text: user } }],
          systemPrompt: system,
          includeContext: 'none',
          temperature: 0,
          maxTokens: Math.ceil(request.maxChars / 2),
        },
        { signal, timeout: MODEL_SUMMARY_RULE.timeoutMs },
      );
      const content = result.content;
      if (content.type !== 'text') throw new Error(`the client answered with ${content.type}, not text`);
      return { text: content.text, model: result.model };
    },
  };
}
