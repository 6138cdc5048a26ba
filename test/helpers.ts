// Test harness: the real simulator over HTTP on 127.0.0.1, and our server reached by a real SDK Client over
// the channel MCP_CHANNEL names (modern-stdio unless vitest.config.ts sets another; test/tools/channels.test.ts
// names each channel itself through `connect`'s `channel`):
// - modern-*: the v2 Client pinned to 2026-07-28 (`server/discover`, the per-request envelope);
// - legacy-*: the v1 Client (the 2025 `initialize` handshake);
// - *-http: our --http transport (serveHttp, createMcpHandler) on 127.0.0.1, a fresh server per request;
// - *-stdio: the SDK's serveStdio over a pair of pipes, newline-delimited JSON-RPC as on a real stdin/stdout.
// The spawned, built server is exercised in test/e2e (stdio, http, eras, bundle).
import { PassThrough, type Readable, type Writable } from 'node:stream';
import {
  Client as ModernClient,
  StreamableHTTPClientTransport as ModernHttp,
} from '@modelcontextprotocol/client';
import { Client as LegacyClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as LegacyHttp } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ReadBuffer, serializeMessage } from '@modelcontextprotocol/sdk/shared/stdio.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { StdioServerTransport, serveStdio } from '@modelcontextprotocol/server/stdio';
import { afterAll, beforeAll, beforeEach } from 'vitest';
import { ApiClient, type ApiClientOptions } from '../src/api/client.js';
import type { ApiError } from '../src/api/errors.js';
import { type Config, loadConfig } from '../src/config.js';
import { type Logger, silentLogger } from '../src/log.js';
import { createServer } from '../src/server.js';
import { type DialectName, dialectName } from '../src/simulator/dialect.js';
import { type Simulator, startSimulator } from '../src/simulator/server.js';
import { type Caller, HTTP_DEFAULTS, serveHttp } from '../src/transports/http.js';

export const CHANNELS = ['modern-stdio', 'modern-http', 'legacy-stdio', 'legacy-http'] as const;
export type Channel = (typeof CHANNELS)[number];
export const CHANNEL = (process.env.MCP_CHANNEL ?? 'modern-stdio') as Channel;
if (!CHANNELS.includes(CHANNEL)) throw new Error(`MCP_CHANNEL must be one of ${CHANNELS.join(', ')}`);
/** True in one channel's run: tests that never reach the server through the channel run there, once. */
export const FIRST_CHANNEL = CHANNEL === CHANNELS[0];

/** What the tests use of a Client, the same for both SDKs (v2's callTool signature). */
export type Client = Pick<
  ModernClient,
  | 'listTools'
  | 'listPrompts'
  | 'getPrompt'
  | 'listResources'
  | 'listResourceTemplates'
  | 'readResource'
  | 'getInstructions'
  | 'getServerVersion'
  | 'close'
> & { callTool: ModernClient['callTool'] };

export const SIM_KEY = 'test-key-7f3a9c1e5b2d';

export function testConfig(sim: Simulator | undefined, overrides: Partial<Config> = {}): Config {
  return {
    ...loadConfig({}).config,
    apiKey: sim ? sim.apiKey : undefined,
    baseUrl: sim ? sim.url : undefined,
    // Far above what a loaded machine takes to answer: a test that wants a timeout sets its own.
    timeoutMs: 10_000,
    maxRetries: 2,
    maxConcurrency: 4,
    logLevel: 'warn',
    httpToken: undefined,
    analysisTimeoutMs: 30_000,
    analysisMaxRequests: 200,
    ...overrides,
  };
}

export interface Harness {
  client: Client;
  channel: Channel;
  api: ApiClient | undefined;
  close(): Promise<void>;
}

/** A real MCP Client talking to our server, whose upstream is the simulator (fast retries for tests). */
export async function connect(
  sim: Simulator | undefined,
  options: {
    config?: Partial<Config>;
    budgetChars?: number;
    demo?: boolean;
    problems?: string[];
    /** Overrides of the upstream client (breaker, retry timing). */
    api?: Partial<ApiClientOptions>;
    /** What the client declares beyond the defaults (the MCP Apps extension, say). */
    capabilities?: Record<string, unknown>;
    logger?: Logger;
    /** The channel to reach the server over, where a test names its own (default: MCP_CHANNEL's). */
    channel?: Channel;
  } = {},
): Promise<Harness> {
  const channel = options.channel ?? CHANNEL;
  const config = testConfig(sim, options.config);
  const api =
    config.apiKey && config.baseUrl
      ? new ApiClient({
          baseUrl: config.baseUrl,
          apiKey: config.apiKey,
          timeoutMs: config.timeoutMs,
          maxRetries: config.maxRetries,
          maxConcurrency: config.maxConcurrency,
          logger: options.logger ?? silentLogger,
          retry: { baseDelayMs: 5, maxDelayMs: 20 },
          ...options.api,
        })
      : undefined;
  const logger = options.logger ?? silentLogger;
  // Over --http, what a 2025 client declared at initialize comes back with its session id.
  const makeServer = (caller?: Caller) =>
    createServer({
      config,
      logger,
      ...(caller?.capabilities ? { clientCapabilities: caller.capabilities } : {}),
      ...(api ? { client: api } : {}),
      ...(options.budgetChars ? { budgetChars: options.budgetChars } : {}),
      ...(options.demo ? { demo: true } : {}),
      ...(options.problems ? { problems: options.problems } : {}),
    });
  const [era, carrier] = channel.split('-') as ['modern' | 'legacy', 'stdio' | 'http'];
  let transport: Transport;
  let stop: () => Promise<void>;
  if (carrier === 'http') {
    const http = await serveHttp(
      { ...HTTP_DEFAULTS, port: 0, token: undefined, allowedHosts: [], allowedOrigins: [] },
      { makeServer, logger, ready: async () => ({ ready: true, detail: 'test' }) },
    );
    transport = era === 'modern' ? new ModernHttp(new URL(http.url)) : new LegacyHttp(new URL(http.url));
    stop = http.close;
  } else {
    const [toServer, toClient] = [new PassThrough(), new PassThrough()];
    const served = serveStdio(() => makeServer(), {
      transport: new StdioServerTransport(toServer, toClient),
    });
    transport = new PipeTransport(toClient, toServer);
    stop = served.close;
  }
  const caps = options.capabilities ?? {};
  const client = era === 'modern' ? await modernClient(transport, caps) : await legacyClient(transport, caps);
  // The Client checks structuredContent against each tool's outputSchema only once it has listed them.
  await client.listTools();
  return {
    client,
    channel,
    api,
    async close() {
      await client.close();
      await stop();
      await api?.close();
    },
  };
}

async function modernClient(transport: Transport, capabilities: Record<string, unknown>): Promise<Client> {
  const client = new ModernClient(
    { name: 'test', version: '1.0.0' },
    { versionNegotiation: { mode: { pin: '2026-07-28' } }, capabilities },
  );
  await client.connect(transport as Parameters<ModernClient['connect']>[0]);
  return client;
}

async function legacyClient(transport: Transport, capabilities: Record<string, unknown>): Promise<Client> {
  const client = new LegacyClient({ name: 'test', version: '1.0.0' }, { capabilities });
  await client.connect(transport);
  // v1's callTool takes a result schema before its options.
  const v1CallTool = client.callTool.bind(client);
  const callTool: Client['callTool'] = (params, options) =>
    v1CallTool(params, undefined, options as never) as ReturnType<Client['callTool']>;
  return Object.assign(client, { callTool }) as unknown as Client;
}

/** The client end of a stdio connection over streams: newline-delimited JSON-RPC, the SDK's framing. */
class PipeTransport implements Transport {
  onmessage?: Transport['onmessage'];
  onclose?: () => void;
  onerror?: (error: Error) => void;
  readonly #buffer = new ReadBuffer();
  constructor(
    private readonly input: Readable,
    private readonly output: Writable,
  ) {}
  async start() {
    this.input.on('data', (chunk: Buffer) => {
      this.#buffer.append(chunk);
      try {
        for (let message = this.#buffer.readMessage(); message; message = this.#buffer.readMessage()) {
          this.onmessage?.(message);
        }
      } catch (error) {
        this.onerror?.(error as Error);
      }
    });
  }
  async send(message: Parameters<Transport['send']>[0]) {
    this.output.write(serializeMessage(message));
  }
  async close() {
    this.output.end();
    this.onclose?.();
  }
}

export interface CallOutcome {
  text: string;
  structured: Record<string, unknown> | undefined;
  isError: boolean;
}

/** Calls a tool (the Client validates structuredContent against the tool's outputSchema) and unpacks it. */
export async function call(
  client: Client,
  name: string,
  args: Record<string, unknown> = {},
): Promise<CallOutcome> {
  const result = await client.callTool({ name, arguments: args });
  const content = result.content as Array<{ type: string; text: string }>;
  return {
    text: content.map((c) => c.text).join('\n'),
    structured: result.structuredContent as Record<string, unknown> | undefined,
    isError: result.isError === true,
  };
}

/** The simulator's dialect for this run (src/simulator/dialect.ts): vitest.config.ts sets it per project. */
export const DIALECT = dialectName(process.env.SIM_DIALECT);
/**
 * Where the dialect in use puts what the document leaves unstated (src/simulator/dialect.ts), for the tests
 * that name it (in concise structuredContent nested fields are dotted).
 */
export const SIM_NAMES = {
  a: {
    series: 'dataPoints',
    viewers: 'viewers',
    core: 'core',
    recentSessions: 'recentSessions',
    peak: 'stats.peakViewers',
    mean: 'stats.averageViewers',
    liveTop: 'topViewers',
    health: { key: 'status', value: 'ok' },
  },
  b: {
    series: 'readings.timeline',
    viewers: 'watchers',
    core: 'identity',
    recentSessions: 'activity.last_sessions',
    peak: 'rollup.watchers_peak',
    mean: 'rollup.watchers_mean',
    liveTop: 'top_live',
    health: { key: 'service_state', value: 'healthy' },
  },
}[DIALECT];
/** The value at a dotted path of a raw upstream body (SIM_NAMES paths). */
export const atPath = (value: unknown, path: string): unknown =>
  path
    .split('.')
    .reduce<unknown>(
      (v, k) => (typeof v === 'object' && v !== null ? (v as Record<string, unknown>)[k] : undefined),
      value,
    );
/** A simulator with the test key, in this run's dialect unless a test names another. */
export const startSim = (dialect: DialectName = DIALECT) => startSimulator({ apiKey: SIM_KEY, dialect });

/** Ids of simulated tokens, by chain and platform. */
export function ids(
  sim: Simulator,
  platform: 'platform_a' | 'platform_b' | 'platform_c',
  count: number,
): string[] {
  return sim.data.tokens
    .filter((t) => t.platform === platform)
    .slice(0, count)
    .map((t) => t.mintId);
}

export const UNKNOWN_ID = 'UnknownMint1111111111111111111111111111111';

/** The structuredContent of a successful call (empty when absent, so a missing field fails its assertion). */
export const sc = (out: CallOutcome): Record<string, unknown> => out.structured ?? {};

/** The error a promise rejects with; fails the test if it resolves. */
export async function failure(promise: Promise<unknown>): Promise<ApiError> {
  try {
    await promise;
  } catch (error) {
    return error as ApiError;
  }
  throw new Error('expected a failure');
}

/**
 * Registers the hooks of a test file (or describe block): a simulator and a connected client before the
 * tests, the simulator's request log and faults reset before each, both closed after. `use` receives them.
 */
export function useSimulator(
  use: (sim: Simulator, h: Harness) => void,
  options: Parameters<typeof connect>[1] = {},
) {
  let sim: Simulator | undefined;
  let h: Harness | undefined;
  beforeAll(async () => {
    sim = await startSim();
    h = await connect(sim, options);
    use(sim, h);
  });
  beforeEach(() => sim?.reset());
  afterAll(async () => {
    await h?.close();
    await sim?.close();
  });
}

/** The failures of a batch result, one entry per id (structuredContent groups them by reason). */
export function failedOf(out: CallOutcome): Array<{ id: string; error: string }> {
  const groups = (out.structured?.errors ?? []) as Array<Record<string, unknown> & { error: string }>;
  return groups.flatMap((g) =>
    ((g.mintIds ?? g.tokenAddresses ?? []) as string[]).map((id) => ({ id, error: g.error })),
  );
}
