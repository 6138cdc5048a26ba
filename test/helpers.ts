// Test harness: the real simulator over HTTP on 127.0.0.1 and the SDK's real Client, connected in memory.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { afterAll, beforeAll, beforeEach } from 'vitest';
import { ApiClient, type ApiClientOptions } from '../src/api/client.js';
import type { ApiError } from '../src/api/errors.js';
import type { Config } from '../src/config.js';
import { type Logger, silentLogger } from '../src/log.js';
import { createServer } from '../src/server.js';
import { type Simulator, startSimulator } from '../src/simulator/server.js';

export const SIM_KEY = 'test-key-7f3a9c1e5b2d';

export function testConfig(sim: Simulator | undefined, overrides: Partial<Config> = {}): Config {
  return {
    apiKey: sim ? sim.apiKey : undefined,
    baseUrl: sim ? sim.url : undefined,
    timeoutMs: 2_000,
    maxRetries: 2,
    maxConcurrency: 4,
    logLevel: 'warn',
    httpToken: undefined,
    ...overrides,
  };
}

export interface Harness {
  client: Client;
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
    logger?: Logger;
  } = {},
): Promise<Harness> {
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
  const server = createServer({
    config,
    logger: options.logger ?? silentLogger,
    ...(api ? { client: api } : {}),
    ...(options.budgetChars ? { budgetChars: options.budgetChars } : {}),
    ...(options.demo ? { demo: true } : {}),
    ...(options.problems ? { problems: options.problems } : {}),
  });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const client = new Client({ name: 'test', version: '1.0.0' });
  await Promise.all([server.connect(serverSide), client.connect(clientSide)]);
  // The Client checks structuredContent against each tool's outputSchema (with ajv) only once it has listed them.
  await client.listTools();
  return {
    client,
    api,
    async close() {
      await client.close();
      await server.close();
      await api?.close();
    },
  };
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

export const startSim = () => startSimulator({ apiKey: SIM_KEY });

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
