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
import { DEMO_COST, DEMO_NOTE, FIXED_OPTIONS, markSimulated, withLine } from './server-parts.js';
import type { History } from './store/index.js';
import { type PrebuiltInstructions, prebuiltEntries, prebuiltInstructions } from './tools/entries.js';
import type { Caller, ResponseFormat, Tool, ViewData } from './tools/tool.js';
import { NAME, VERSION } from './version.js';

export interface ServerDeps {
  config: Config;
  logger: Logger;
  /** Configuration problems found at start, repeated in the setup guide. */
  problems?: string[];
  budgetChars?: number;
  demo?: boolean;
  /** Made from `config` when absent. */
  client?: Upstream;
  setupPlace?: SetupPlace;
  /** Upstream requests this server may make in all (over --http: one HTTP request's whole batch). */
  upstreamAllowance?: number;
  tools?: readonly Tool[];
  /** A 2025 client over stateless HTTP declares these once, at initialize; its session id carries them. */
  clientCapabilities?: ClientCapabilities;
  /** Absent: one caller per upstream client. */
  caller?: CallerIdentity;
  /** The cancellation of one request by its JSON-RPC id (a batch member cancelled alone). */
  cancelled?: (id: unknown) => AbortSignal | undefined;
  history?: History;
}

/** Who is calling, as --http knows it. Only the server reads these parts; a tool gets one opaque Caller. */
export interface CallerIdentity {
  /** Its verified session, else its address: the upstream's capacity is shared among these in turn. */
  id: string;
  /** Anchor and key digest together: what a tool keeps per caller. */
  share: string;
  /** Who takes turns at the few run_analysis workers. */
  address: string;
  /** Its own upstream key, when the server has none of its own. */
  apiKey?: string;
}

/** The bundle's instructions, written at build time; off the bundle, src/reference.ts's. */
const INSTRUCTIONS: PrebuiltInstructions =
  prebuiltInstructions() ??
  (await import('./reference.js').then((r) => ({ plain: r.INSTRUCTIONS, demo: r.DEMO_INSTRUCTIONS })));
const loadReference = () => import('./reference.js');

/** ext-apps's EXTENSION_ID, restated: that package loads with the views, only for a client that declares it. */
const UI_EXTENSION = 'io.modelcontextprotocol/ui';

/** An opaque caller per upstream client, where the transport names none (stdio: one per process). */
const clientIds = new WeakMap<object, string>();
let clientCount = 0;

/** The upstream client, or undefined without key or base URL; its code loads on the first request. */
export function createClient(config: Config, logger: Logger): Upstream | undefined {
  const { apiKey, baseUrl } = config;
  if (!apiKey || !baseUrl) return undefined;
  let client: Promise<ApiClient> | undefined;
  const load = () =>
    (client ??= import('./api/client.js').then(
      ({ ApiClient }) => new ApiClient({ ...config, baseUrl, apiKey, logger }),
    ));
  return {
    request: async (req, signal, caller) => (await load()).request(req, signal, caller),
    close: async () => (client ? (await client).close() : undefined),
  };
}

// The tool table, the views and what a call needs beside them load at the first call, or in the idle time
// after the handshake (`preload`): never before it, which the bundle answers from build-time entries.
let table: Promise<readonly [typeof import('./tools/index.js'), typeof import('./views.js')]> | undefined;
const loadTable = () => (table ??= Promise.all([import('./tools/index.js'), import('./views.js')]));
const importCallKit = () =>
  Promise.all([import('./format/result.js'), import('./format/errors.js'), import('./api/errors.js')]).then(
    ([result, errors, apiErrors]) => ({ ...result, ...errors, ...apiErrors }),
  );
let callKit: ReturnType<typeof importCallKit> | undefined;
const loadCallKit = () => (callKit ??= importCallKit());
type CallKit = Awaited<ReturnType<typeof importCallKit>>;

const PRELOAD_AFTER_MS = 250;
let preloading = false;
const MINT = 'Rehearsa1111111111111111111111111111111111';
const RECORD = { mintId: MINT, coinName: 'Rehearsal', coinSymbol: 'RH', isCurrentlyLive: true };
const CANNED = { data: { ...RECORD, currentViewers: 1234, tokenMarketCap: 56789.5, tokenPrice: 0.000123 } };

// After the handshake, one get_streamer_core call on a canned record (nothing sent) compiles the call's path
// in V8 and zod, so the user's first question does not pay for it. Unref'd: it never keeps a process alive.
function preload(
  withClient: boolean,
  finish: (kit: CallKit, r: Rendered, format: ResponseFormat) => unknown,
) {
  if (preloading) return;
  preloading = true;
  setTimeout(() => {
    Promise.all([
      loadTable(),
      loadCallKit(),
      ...(withClient ? [import('./api/client.js'), import('undici')] : []),
    ])
      .then(async ([[{ TOOLS }], kit]) => {
        const prepared = TOOLS.find((t) => t.name === 'get_streamer_core')?.prepare({ mint: MINT });
        if (!prepared || 'error' in prepared) return;
        const ctx = { send: async () => CANNED, progress: () => {}, signal: new AbortController().signal };
        finish(kit, await prepared.run({ ...ctx, budget: kit.DEFAULT_BUDGET_CHARS }), prepared.format);
      })
      .catch(() => {});
  }, PRELOAD_AFTER_MS).unref();
}

export function createServer(deps: ServerDeps): Server {
  const own = deps.tools;
  const toolTable = async () => own ?? (await loadTable())[0].TOOLS;
  let byName: Map<string, Tool> | undefined;
  const client = deps.client ?? createClient(deps.config, deps.logger);
  const budgetOf = (kit: CallKit) => deps.budgetChars ?? kit.DEFAULT_BUDGET_CHARS;
  const redact = redactor([deps.config.apiKey, deps.caller?.apiKey]);
  const caller = callerFor(deps.caller, client);
  let allowance = deps.upstreamAllowance ?? Number.POSITIVE_INFINITY;
  let listed: { tools: ReturnType<Tool['entry']>[] } | undefined;
  let listedForApps: typeof listed;
  // A 2026-07-28 client declares its capabilities on each request; a 2025 one once, at initialize.
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
  const simulated = (text: string) => (deps.demo ? `${DEMO_NOTE}\n${text}` : text);

  const server = new Server(
    { name: NAME, version: VERSION },
    {
      capabilities: { tools: {}, prompts: {}, resources: {} },
      instructions: deps.demo ? INSTRUCTIONS.demo : INSTRUCTIONS.plain,
      ...FIXED_OPTIONS,
    },
  );
  server.setRequestHandler('prompts/list', async () => ({
    prompts: (await import('./prompts.js')).PROMPTS.map(({ text, ...prompt }) => prompt),
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
  server.setRequestHandler('resources/templates/list', () => ({ resourceTemplates: [] }));
  server.setRequestHandler('resources/read', async (request, ctx) => {
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
    preload(client !== undefined, (kit, r, format) =>
      redact.deep(kit.toolResult(kit.enforceBudget(r, budgetOf(kit), format))),
    );
    if (!views) return listed;
    listedForApps ??= { tools: views.appEntries(listed.tools) };
    return listedForApps;
  });
  server.setRequestHandler('tools/call', async (request, ctx): Promise<CallToolResult> => {
    const views = await apps(ctx);
    const [tools, kit] = await Promise.all([toolTable(), loadCallKit()]);
    const { ApiError, BatchLimitError, describeError, enforceBudget, setupGuide, toolError, toolResult } =
      kit;
    const budget = budgetOf(kit);
    byName ??= new Map(tools.map((t) => [t.name, t]));
    const tool = byName.get(request.params.name) ?? views?.APP_TOOL.get(request.params.name);
    if (!tool) {
      const { closestFirst } = await import('./analysis/closest.js');
      const { WireError, INVALID_PARAMS } = kit;
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
    const { analysisMaxRequests } = deps.config;
    const started = performance.now();
    // Progress is awaited before the result is returned, so it is never written after it.
    const notified: Promise<void>[] = [];
    let result: CallToolResult;
    let view: ViewData | undefined;
    const history = deps.history?.call(deps.caller?.apiKey ?? deps.config.apiKey);
    try {
      let rendered = await prepared.run({
        send: async (req, also) => {
          if (allowance-- <= 0)
            throw new BatchLimitError('upstream allowance used', { allowance: deps.upstreamAllowance });
          const either = also ? AbortSignal.any([signal, also]) : signal;
          try {
            const { body } = await client.request(req, either, deps.caller?.id);
            history?.observe(req, body);
            return body;
          } catch (error) {
            if (deps.demo && error instanceof ApiError) error.detail.simulated = true;
            throw error;
          }
        },
        progress: (progress, total, message) => {
          if (progressToken === undefined) return;
          const params = { progressToken, progress, total, message };
          notified.push(ctx.mcpReq.notify({ method: 'notifications/progress', params }).catch(() => {}));
        },
        signal,
        ...(caller ? { caller } : {}),
        ...(views ? { view: (data: ViewData) => (view = data) } : {}),
        redact: redact.deep,
        analysis: {
          timeoutMs: deps.config.analysisTimeoutMs,
          ...(allowance < analysisMaxRequests
            ? {
                maxRequests: Math.max(0, allowance),
                limitName: 'the upstream allowance of one --http request',
              }
            : { maxRequests: analysisMaxRequests }),
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
  const id = clientIds.get(client) ?? `client ${++clientCount}`;
  clientIds.set(client, id);
  return { key: id, turns: id };
}
