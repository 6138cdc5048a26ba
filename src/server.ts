import {
  type CallToolResult,
  CLIENT_CAPABILITIES_META_KEY,
  type ClientCapabilities,
  Server,
  type ServerContext,
} from '@modelcontextprotocol/server';
import type { ApiClient, Upstream } from './api/client.js';
import { type Config, missingSettings } from './config.js';
import type { SetupPlace } from './format/errors.js';
import type { Rendered } from './format/result.js';
import type { Logger } from './log.js';
import { redactor } from './redact.js';
import {
  CACHE_HINTS,
  DEMO_COST,
  DEMO_NOTE,
  markSimulated,
  NO_ELICITATION,
  withLine,
} from './server-parts.js';
import type { History } from './store/index.js';
import { type PrebuiltInstructions, prebuiltEntries, prebuiltInstructions } from './tools/entries.js';
import type { Caller, ResponseFormat, Tool, ViewData } from './tools/tool.js';
import { NAME, VERSION } from './version.js';

export interface ServerDeps {
  config: Config;
  logger: Logger;
  /** Configuration problems found at start, repeated in the setup guide. */
  problems?: string[];
  /** Characters each result channel may use. */
  budgetChars?: number;
  /** Demo mode: every result says that its data is simulated. */
  demo?: boolean;
  /** Shared upstream client; made from `config` when absent. */
  client?: Upstream;
  /** Where the setup guide sends the user: the desktop extension's settings, or the environment. */
  setupPlace?: SetupPlace;
  /** Upstream requests this server may make in all (one HTTP request's server: its whole batch). */
  upstreamAllowance?: number;
  tools?: readonly Tool[];
  /**
   * What the client declared, when the transport knows it from elsewhere: a 2025 client over stateless
   * HTTP declares it once, at initialize, and its session id carries it to later requests.
   */
  clientCapabilities?: ClientCapabilities;
  /** Who is calling, as the transport knows it (over --http); absent: one caller per upstream client. */
  caller?: CallerIdentity;
  /** The transport's cancellation of one request by its JSON-RPC id (a batch member cancelled alone). */
  cancelled?: (id: unknown) => AbortSignal | undefined;
  /** Where what the upstream answers is kept, per key (src/store); absent: nothing is kept. */
  history?: History;
}

/** Who is calling, as --http knows it. Only the server reads these parts; a tool gets one opaque Caller. */
export interface CallerIdentity {
  /** Its anchor (verified session, else address): the upstream's capacity is shared among these in turn. */
  id: string;
  /** Its anchor and key together, opaque (a digest, never the key): what a tool keeps per caller. */
  share: string;
  /** Its address: who takes turns at the few run_analysis workers (an address's sessions share one). */
  address: string;
  /** Its own upstream key, when the server uses it (it has none of its own): kept out of every result. */
  apiKey?: string;
}

/**
 * The initialize instructions: the bundle's, written at build time; off the bundle, src/reference.ts's. The
 * reference resource (src/reference.ts) loads when a client first lists or reads resources.
 */
const INSTRUCTIONS: PrebuiltInstructions =
  prebuiltInstructions() ??
  (await import('./reference.js').then(({ INSTRUCTIONS: plain, DEMO_INSTRUCTIONS: demo }) => ({
    plain,
    demo,
  })));
const loadReference = () => import('./reference.js');

/** The MCP Apps extension's id (@modelcontextprotocol/ext-apps's EXTENSION_ID), read as its getUiCapability
 * reads it: the package loads with the views, for a client that declares it. */
const UI_EXTENSION = 'io.modelcontextprotocol/ui';

/** An opaque caller per upstream client, where the transport names none (stdio: one per process). */
const clientIds = new WeakMap<object, string>();
let clientCount = 0;
const callerOf = (client: object) => {
  let id = clientIds.get(client);
  if (id === undefined) {
    id = `client ${++clientCount}`;
    clientIds.set(client, id);
  }
  return id;
};

/**
 * The upstream client, or undefined while the key or base URL is missing. The client's code (and undici's)
 * is loaded on the first request, not at start: a desktop client spawns the server at every start, often
 * only to list tools.
 */
export function createClient(config: Config, logger: Logger): Upstream | undefined {
  const { apiKey, baseUrl } = config;
  if (!apiKey || !baseUrl) return undefined;
  let client: Promise<ApiClient> | undefined;
  const load = () =>
    (client ??= import('./api/client.js').then(
      ({ ApiClient }) =>
        new ApiClient({
          baseUrl,
          apiKey,
          timeoutMs: config.timeoutMs,
          maxRetries: config.maxRetries,
          maxConcurrency: config.maxConcurrency,
          logger,
        }),
    ));
  return {
    request: async (req, signal, caller) => (await load()).request(req, signal, caller),
    close: async () => (client ? (await client).close() : undefined),
  };
}

let table: Promise<readonly [typeof import('./tools/index.js'), typeof import('./views.js')]> | undefined;
/**
 * The tool table and the MCP Apps views (their zod schemas, renderers and view data), loaded at the first
 * call, or sooner in the idle time after the handshake (`preload`): never before the handshake, which the
 * bundle answers from the tools/list entries computed at build time (src/tools/entries.ts).
 */
const loadTable = () => (table ??= Promise.all([import('./tools/index.js'), import('./views.js')]));

/**
 * What a call needs beside its tool and the handshake does not (results, error texts, the upstream's error
 * kinds): loaded with the tool table, at the first call or in the idle time after the handshake, so that
 * nothing of it runs before tools/list is answered. Once loaded, a call pays one resolved await for it.
 */
const loadCallKit = () =>
  (callKit ??= Promise.all([
    import('./format/result.js'),
    import('./format/errors.js'),
    import('./api/errors.js'),
  ]).then(([result, errors, apiErrors]) => ({ ...result, ...errors, ...apiErrors })));
let callKit:
  | Promise<
      typeof import('./format/result.js') &
        typeof import('./format/errors.js') &
        typeof import('./api/errors.js')
    >
  | undefined;
type CallKit = Awaited<ReturnType<typeof loadCallKit>>;

/** Idle time after the first tools/list before the first call's code is loaded. */
const PRELOAD_AFTER_MS = 250;
let preloading = false;
/**
 * Loads what the first call needs (the tool table, the upstream client, undici) once the handshake is over
 * and the client waits for its user, then rehearses a call: the user's first question pays for neither.
 * Timed, so the handshake's answers go first; unref'd, so it never keeps a process alive.
 */
function preload(withClient: boolean, rehearsal: (tools: readonly Tool[], kit: CallKit) => Promise<unknown>) {
  if (preloading) return;
  preloading = true;
  setTimeout(() => {
    Promise.all([
      loadTable(),
      loadCallKit(),
      ...(withClient ? [import('./api/client.js'), import('undici')] : []),
    ])
      .then(([[{ TOOLS }], kit]) => rehearsal(TOOLS, kit))
      .catch(() => {});
  }, PRELOAD_AFTER_MS).unref();
}

const MINT = 'Rehearsa1111111111111111111111111111111111';
const RECORD = { mintId: MINT, coinName: 'Rehearsal', coinSymbol: 'RH', isCurrentlyLive: true };
const CANNED = { data: { ...RECORD, currentViewers: 1234, tokenMarketCap: 56789.5, tokenPrice: 0.000123 } };

/**
 * get_streamer_core run once on a canned record (validation, rendering, the result and its redaction), so
 * V8 and zod compile the call's path in the idle time. Nothing is sent: the rehearsal's `send` answers.
 */
async function rehearse(
  tools: readonly Tool[],
  budget: number,
  finish: (r: Rendered, format: ResponseFormat) => unknown,
) {
  const prepared = tools.find((t) => t.name === 'get_streamer_core')?.prepare({ mint: MINT });
  if (!prepared || 'error' in prepared) return;
  const ctx = { send: async () => CANNED, progress: () => {}, signal: new AbortController().signal };
  finish(await prepared.run({ ...ctx, budget }), prepared.format);
}

/** An MCP server exposing the tool table over whatever transport it is connected to. */
export function createServer(deps: ServerDeps): Server {
  const own = deps.tools;
  const toolTable = async () => own ?? (await loadTable())[0].TOOLS;
  let byName: Map<string, Tool> | undefined;
  const client = deps.client ?? createClient(deps.config, deps.logger);
  // The budget's default lives with the results (src/format/result.ts), loaded with the call kit.
  const budgetOf = (kit: CallKit) => deps.budgetChars ?? kit.DEFAULT_BUDGET_CHARS;
  // The last check on every result: text, structuredContent and _meta, errors included.
  const redact = redactor([deps.config.apiKey, deps.caller?.apiKey]);
  const caller = callerFor(deps.caller, client);
  let allowance = deps.upstreamAllowance ?? Number.POSITIVE_INFINITY;
  let listed: { tools: ReturnType<Tool['entry']>[] } | undefined;
  let listedForApps: typeof listed;
  // A 2026-07-28 client declares its capabilities on each request; a 2025 one once, at initialize. The
  // views are loaded only for a client that declares the extension at all (src/views.ts reads the rest).
  const apps = async (ctx: ServerContext) => {
    const capabilities =
      (ctx.mcpReq.envelope as Record<string, ClientCapabilities> | undefined)?.[
        CLIENT_CAPABILITIES_META_KEY
      ] ??
      server.getClientCapabilities() ??
      deps.clientCapabilities;
    if (capabilities?.extensions?.[UI_EXTENSION] === undefined) return undefined;
    const views = (await loadTable())[1];
    return views.appsDeclared(capabilities) ? views : undefined;
  };
  let reference: string | undefined;
  // Every demo result says that its data is simulated, errors included.
  const simulated = (text: string) => (deps.demo ? `${DEMO_NOTE}\n${text}` : text);

  const server = new Server(
    { name: NAME, version: VERSION },
    {
      capabilities: { tools: {}, prompts: {}, resources: {} },
      instructions: deps.demo ? INSTRUCTIONS.demo : INSTRUCTIONS.plain,
      jsonSchemaValidator: NO_ELICITATION,
      cacheHints: CACHE_HINTS,
    },
  );
  // The prompts, and the error texts they share with the tools, load when a client first asks for them.
  server.setRequestHandler('prompts/list', async () => ({
    prompts: (await import('./prompts.js')).PROMPTS.map(({ name, title, description, arguments: args }) => ({
      name,
      title,
      description,
      arguments: args,
    })),
  }));
  server.setRequestHandler('prompts/get', async (request) =>
    (await import('./prompts.js')).getPrompt(request.params.name, request.params.arguments ?? {}),
  );
  server.setRequestHandler('resources/list', async (_request, ctx) => ({
    resources: [
      {
        uri: (await loadReference()).REFERENCE_URI,
        name: 'reference',
        title: 'Streamer analytics reference',
        description:
          'Chains and platforms, every tool with its limits, and which tool answers which question.',
        mimeType: 'text/markdown',
      },
      ...((await apps(ctx)) ? [(await loadTable())[1].VIEW_RESOURCE] : []),
    ],
  }));
  // Resources are declared, so clients may ask for templates: there are none.
  server.setRequestHandler('resources/templates/list', () => ({ resourceTemplates: [] }));
  server.setRequestHandler('resources/read', async (request, ctx) => {
    // The view page only for a client that renders it; to any other, an unknown resource like any other.
    const views = await apps(ctx);
    if (views && request.params.uri === views.VIEW_URI) return { contents: [views.viewContents()] };
    const { REFERENCE_URI, referenceText } = await loadReference();
    if (request.params.uri !== REFERENCE_URI) {
      const { WireError, INVALID_PARAMS } = await loadCallKit();
      throw new WireError(INVALID_PARAMS, `Unknown resource: ${request.params.uri}`, {
        uri: request.params.uri,
      });
    }
    reference ??= referenceText(await toolTable());
    return { contents: [{ uri: REFERENCE_URI, mimeType: 'text/markdown', text: reference }] };
  });
  server.setRequestHandler('tools/list', async (_request, ctx) => {
    const views = await apps(ctx);
    const prebuilt = own ? undefined : prebuiltEntries();
    listed ??= { tools: prebuilt ? [...prebuilt.tools] : (await toolTable()).map((t) => t.entry()) };
    preload(client !== undefined, (tools, kit) =>
      rehearse(tools, budgetOf(kit), (r, format) =>
        redact.deep(kit.toolResult(kit.enforceBudget(r, budgetOf(kit), format))),
      ),
    );
    if (!views) return listed;
    listedForApps ??= { tools: views.appEntries(listed.tools) };
    return listedForApps;
  });
  server.setRequestHandler('tools/call', async (request, ctx): Promise<CallToolResult> => {
    const views = await apps(ctx);
    const withView = views !== undefined;
    const [tools, kit] = await Promise.all([toolTable(), loadCallKit()]);
    const { ApiError, BatchLimitError, describeError, enforceBudget, setupGuide, toolError, toolResult } =
      kit;
    const budget = budgetOf(kit);
    byName ??= new Map(tools.map((t) => [t.name, t]));
    const tool = byName.get(request.params.name) ?? views?.APP_TOOL.get(request.params.name);
    if (!tool) {
      const { closestFirst } = await import('./analysis/closest.js');
      const { WireError, INVALID_PARAMS } = kit;
      // Named after the closest real tools, so that a misspelt call can be corrected without a tools/list.
      const closest = closestFirst(request.params.name.slice(0, 128), [...byName.keys()]).slice(0, 3);
      throw new WireError(
        INVALID_PARAMS,
        `Unknown tool: ${request.params.name}. The closest tools: ${closest.join(', ')} (tools/list names all ${byName.size}).`,
      );
    }
    const prepared = tool.prepare(request.params.arguments);
    if ('error' in prepared) return redact.deep(toolError(simulated(prepared.error)));
    if (!client)
      return toolError(setupGuide(missingSettings(deps.config), deps.problems ?? [], deps.setupPlace));
    const cancelled = deps.cancelled?.(ctx.mcpReq.id);
    const signal = cancelled ? AbortSignal.any([ctx.mcpReq.signal, cancelled]) : ctx.mcpReq.signal;
    const progressToken = ctx.mcpReq._meta?.progressToken;
    const started = performance.now();
    // Progress is handed to the transport before the result, so it is never written after it.
    const notified: Promise<void>[] = [];
    let result: CallToolResult;
    let view: ViewData | undefined;
    // Every answer the upstream gives this call is kept for the key that fetched it, at the call's end.
    const history = deps.history?.call(deps.caller?.apiKey ?? deps.config.apiKey);
    try {
      let rendered = await prepared.run({
        send: async (req, also) => {
          if (allowance-- <= 0)
            throw new BatchLimitError('upstream allowance used', { allowance: deps.upstreamAllowance });
          try {
            const { body } = await client.request(
              req,
              also ? AbortSignal.any([signal, also]) : signal,
              deps.caller?.id,
            );
            history?.observe(req, body);
            return body;
          } catch (error) {
            // The failing service is the embedded simulator: its advice names no setting.
            if (deps.demo && error instanceof ApiError) error.detail.simulated = true;
            throw error;
          }
        },
        progress: (progress, total, message) => {
          if (progressToken === undefined) return;
          notified.push(
            ctx.mcpReq
              .notify({
                method: 'notifications/progress',
                params: { progressToken, progress, total, message },
              })
              .catch(() => {}),
          );
        },
        signal,
        ...(caller ? { caller } : {}),
        ...(withView ? { view: (data: ViewData) => (view = data) } : {}),
        redact: redact.deep,
        analysis: {
          timeoutMs: deps.config.analysisTimeoutMs,
          // Over --http one HTTP request may cause only so many upstream requests: a program gets what is left.
          ...(allowance < deps.config.analysisMaxRequests
            ? {
                maxRequests: Math.max(0, allowance),
                limitName: 'the upstream allowance of one --http request',
              }
            : { maxRequests: deps.config.analysisMaxRequests }),
        },
        // The demo marker is added after rendering: the result is fitted to what it leaves.
        budget: deps.demo ? budget - DEMO_COST : budget,
        ...(history ? { history } : {}),
      });
      const unkept = await history?.flush();
      if (unkept) rendered = withLine(rendered, unkept);
      if (deps.demo) rendered = markSimulated(rendered);
      rendered = enforceBudget(rendered, budget, prepared.format);
      deps.logger.debug('tool call', { tool: tool.name, ms: Math.round(performance.now() - started) });
      result = toolResult(rendered);
      // The view's full data, outside both model channels and their budget.
      if (view && views) result._meta = { [views.VIEW_DATA_KEY]: { ...view, simulated: deps.demo === true } };
    } catch (error) {
      await history?.flush();
      deps.logger.warn('tool call failed', { tool: tool.name, error });
      result = toolError(simulated(describeError(error)));
    }
    await Promise.all(notified);
    return redact.deep(result);
  });
  return server;
}

/** The one caller value a tool sees: what it keeps per caller, and its turn at the sandbox. */
function callerFor(identity: CallerIdentity | undefined, client: Upstream | undefined): Caller | undefined {
  if (identity) return { key: identity.share, turns: identity.address };
  if (!client) return undefined;
  const id = callerOf(client);
  return { key: id, turns: id };
}
