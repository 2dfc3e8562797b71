import { randomUUID } from 'node:crypto';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  ErrorCode,
  GetPromptRequestSchema,
  ListPromptsRequestSchema,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListToolsRequestSchema,
  ReadResourceRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';
import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import type { JsonSchemaType, jsonSchemaValidator } from '@modelcontextprotocol/sdk/validation';
import { z } from 'zod';
import { argumentError, invalidParams, isCallerError, oneLine, ProtocolError } from './argumentErrors';
import { compatArgumentMessage, compatErrorResult } from './compatErrors';
import type { MethodName, MethodParams, MethodResult } from '../api/methods';
import { EngramError } from '../errors';
import type { BridgeRuntime } from './processRuntime';
import type { Profile } from './profiles';
import { portableSchema } from './portableSchema';
import { getPrompt, PROMPTS, RECORDING_PROMPTS } from './prompts';
import { readResource, RECORDING_RESOURCES, RESOURCE_TEMPLATES, RESOURCES } from './resources';
import type { ToolContext, ToolDefinition } from './toolDefinition';
import { toolsFor } from './toolRegistry';
import { openAiSummariser, summaryEndpointFromEnv } from '../lifecycle/openAiSummariser';
import { samplingSummariser } from './samplingSummariser';

const VERSION = '0.1.0';

/** Memory tools refuse unknown fields (a misspelt `tag` for `tags` must not pass silently); compat tools accept them as the official server does. */
function inputSchemaOf(tool: ToolDefinition) {
  return tool.group === 'compat' ? tool.input : tool.input.strict();
}

function describeTool(tool: ToolDefinition): Tool {
  return {
    name: tool.name,
    title: tool.title,
    description: tool.description,
    inputSchema: portableSchema(z.toJSONSchema(inputSchemaOf(tool), { io: 'input' })) as Tool['inputSchema'],
    outputSchema: portableSchema(z.toJSONSchema(tool.output, { io: 'output' })) as Tool['outputSchema'],
    annotations: { title: tool.title, ...tool.hints, openWorldHint: false },
  };
}

/**
 * Each profile's tools/list answer, described on the first tools/list rather than when a server is
 * made: the JSON schemas of every tool cost a stdio bridge ~35 ms of CPU (cold zod code) before it
 * could answer anything, and a tool call needs none of them. Kept for the process: the tools are
 * fixed, and an HTTP bridge makes a server per session.
 */
const listings = new Map<Profile, Tool[]>();

function listingOf(profile: Profile, tools: readonly ToolDefinition[]): Tool[] {
  let listing = listings.get(profile);
  if (!listing) listings.set(profile, (listing = tools.map(describeTool)));
  return listing;
}

/**
 * The SDK's server checks elicitation answers with Ajv, which its constructor builds (~6 ms of CPU
 * before a bridge answers anything); Engram never elicits, so it is built on first use, if ever.
 */
function validatorOnFirstUse(): jsonSchemaValidator {
  let ajv: AjvJsonSchemaValidator | undefined;
  return {
    getValidator<T>(schema: JsonSchemaType) {
      ajv ??= new AjvJsonSchemaValidator();
      return ajv.getValidator<T>(schema);
    },
  };
}

/**
 * Who is calling when the transport knows it (the team server's tokens): every write is recorded
 * as `agent`, and `authorize` refuses a method the caller may not call (throws).
 */
export interface BridgeCaller {
  agent: string;
  authorize(method: MethodName): void;
}

/**
 * One MCP server per connection (stdio has one; Streamable HTTP one per session), all sharing the
 * process's engine. The client's name from initialize becomes the agent of its writes (the
 * caller's, when the transport authenticated one), and each connection is its own session
 * (working memory, injection ledger).
 */
export function createBridgeServer(runtime: BridgeRuntime, caller?: BridgeCaller): Server {
  const server = new Server(
    { name: 'engram', title: 'Engram', version: VERSION },
    {
      capabilities: { tools: {}, resources: {}, prompts: {}, logging: {} },
      jsonSchemaValidator: validatorOnFirstUse(),
      instructions:
        'Engram is the project memory. Call memory_context or memory_recall before working on something, memory_remember when you learn a decision, convention or fix worth keeping.',
    },
  );
  const tools = toolsFor(runtime.profile);
  const byName = new Map(tools.map((tool) => [tool.name, tool]));
  const session = `mcp-${randomUUID()}`;
  const roots = async () => {
    if (!server.getClientCapabilities()?.roots) return [];
    return (await server.listRoots()).roots.map((root) => root.uri);
  };
  const context: ToolContext = {
    async call<M extends MethodName>(method: M, params: MethodParams<M>): Promise<MethodResult<M>> {
      caller?.authorize(method);
      const engine = await runtime.engine(roots);
      const agent = caller?.agent ?? (server.getClientVersion()?.name || 'mcp-client');
      return engine.call(method, { ...params, actor: { agent, session } });
    },
    summariser() {
      const endpoint = summaryEndpointFromEnv(runtime.settings.choice.env);
      if (endpoint) return openAiSummariser(endpoint);
      if (server.getClientCapabilities()?.sampling) return samplingSummariser(server);
      return { unavailable: 'the MCP client does not offer sampling and no ENGRAM_SUMMARY_URL is set' };
    },
    get bridge() {
      return { role: runtime.role, profile: runtime.profile, database: runtime.database };
    },
  };

  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: listingOf(runtime.profile, tools) }));
  server.setRequestHandler(CallToolRequestSchema, async (request) => {
    const { name, arguments: args } = request.params;
    const tool = byName.get(name);
    if (!tool)
      throw invalidParams(
        `name: no tool named ${JSON.stringify(name.slice(0, 100))} in the ${runtime.profile} profile`,
      );
    const parsed = inputSchemaOf(tool).safeParse(args ?? {});
    if (!parsed.success) {
      if (tool.group === 'compat') return compatErrorResult(compatArgumentMessage(name, parsed.error));
      throw argumentError(name, parsed.error);
    }
    return runTool(tool, parsed.data, tool.hints.readOnlyHint ? readOnly(context) : context, runtime);
  });
  server.setRequestHandler(ListResourcesRequestSchema, () => ({ resources: RESOURCES }));
  server.setRequestHandler(ListResourceTemplatesRequestSchema, () => ({
    resourceTemplates: RESOURCE_TEMPLATES,
  }));
  server.setRequestHandler(ReadResourceRequestSchema, (request) =>
    guard(`resource ${request.params.uri.slice(0, 100)}`, () =>
      readResource(
        request.params.uri,
        RECORDING_RESOURCES.has(request.params.uri) ? context : readOnly(context),
      ),
    ),
  );
  server.setRequestHandler(ListPromptsRequestSchema, () => ({ prompts: PROMPTS }));
  server.setRequestHandler(GetPromptRequestSchema, (request) =>
    guard(`prompt ${request.params.name.slice(0, 100)}`, () =>
      getPrompt(
        request.params.name,
        request.params.arguments ?? {},
        RECORDING_PROMPTS.has(request.params.name) ? context : readOnly(context),
      ),
    ),
  );
  return server;
}

/**
 * The context of a call that promised to change nothing (readOnlyHint, a plain resource or prompt):
 * its engine calls carry `readOnly`, so reads note no access and nothing reaches the journal.
 */
function readOnly(context: ToolContext): ToolContext {
  return {
    call: (method, params) => context.call(method, { ...params, readOnly: true }),
    summariser: () => ({ unavailable: 'a read-only call asks no model' }),
    get bridge() {
      return context.bridge;
    },
  };
}

async function runTool(
  tool: ToolDefinition,
  args: unknown,
  context: ToolContext,
  runtime: BridgeRuntime,
): Promise<CallToolResult> {
  try {
    const output = await tool.run(args as never, context);
    return {
      content: [{ type: 'text', text: output.text }],
      structuredContent: output.structured,
    };
  } catch (error) {
    // The official memory server answers every failure of its tools in the result, as it is.
    if (tool.group === 'compat') {
      if (!EngramError.is(error, 'NOT_FOUND'))
        runtime.settings.logger.warn(`${tool.name} failed: ${oneLine(error)}`);
      return compatErrorResult(error instanceof Error ? error.message : String(error));
    }
    if (error instanceof ProtocolError) throw error;
    if (isCallerError(error)) throw invalidParams(`${tool.name}: ${oneLine(error)}`);
    // Not found, a store failure, a host that could not be reached: the call fails cleanly, in
    // the result, so the agent reads why and goes on.
    runtime.settings.logger.warn(`${tool.name} failed: ${oneLine(error)}`);
    return { content: [{ type: 'text', text: `${tool.name}: ${oneLine(error)}` }], isError: true };
  }
}

/** Resources and prompts have no error result: engine failures become one-line JSON-RPC errors. */
async function guard<T>(what: string, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof ProtocolError) throw error;
    const code = isCallerError(error) ? ErrorCode.InvalidParams : ErrorCode.InternalError;
    throw new ProtocolError(code, `${what}: ${oneLine(error)}`);
  }
}
