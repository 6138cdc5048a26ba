// Both protocol eras, from one server factory, over both transports: a 2026-07-28 client (SDK v2, pinned,
// so it fails unless the server offers that revision) and a 2025 client (SDK v1, `initialize`). The same
// behaviour suite runs against each of the four, and both eras share one HTTP server at the same time.
import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import {
  Client as ModernClient,
  StreamableHTTPClientTransport as ModernHttp,
} from '@modelcontextprotocol/client';
import { StdioClientTransport as ModernStdio } from '@modelcontextprotocol/client/stdio';
import { Client as LegacyClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport as LegacyStdio } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport as LegacyHttp } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Simulator } from '../../src/simulator/server.js';
import { ids, startSim } from '../helpers.js';

const ENTRY = fileURLToPath(new URL('../../dist/server/index.js', import.meta.url));

/** What the suite needs of either SDK's client. */
interface AnyClient {
  listTools(): Promise<{ tools: Array<{ name: string }> }>;
  callTool(
    params: { name: string; arguments: Record<string, unknown> },
    ...rest: unknown[]
  ): Promise<Record<string, unknown>>;
  close(): Promise<void>;
}

let sim: Simulator;
let http: { child: ChildProcess; url: string };
const env = () => ({
  PATH: process.env.PATH ?? '',
  STREAMER_ANALYTICS_API_KEY: sim.apiKey,
  STREAMER_ANALYTICS_BASE_URL: sim.url,
});

beforeAll(async () => {
  sim = await startSim();
  const child = spawn(process.execPath, [ENTRY, '--http', '--port', '0'], {
    env: env(),
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  const url = await new Promise<string>((resolve, reject) => {
    let text = '';
    child.stderr?.on('data', (chunk) => {
      text += String(chunk);
      const m = /at (http:\/\/\S+\/mcp)/.exec(text);
      if (m?.[1]) resolve(m[1]);
    });
    child.on('exit', (code) => reject(new Error(`exited ${code}: ${text}`)));
  });
  http = { child, url };
});
afterAll(async () => {
  http?.child.kill();
  await sim.close();
});

const PIN = { versionNegotiation: { mode: { pin: '2026-07-28' as const } } };

async function connect(era: 'modern' | 'legacy', transport: 'stdio' | 'http'): Promise<AnyClient> {
  const info = { name: `eras-${era}-${transport}`, version: '1.0.0' };
  if (era === 'modern') {
    const client = new ModernClient(info, PIN);
    await client.connect(
      transport === 'stdio'
        ? new ModernStdio({ command: process.execPath, args: [ENTRY], env: env() })
        : new ModernHttp(new URL(http.url)),
    );
    expect(client.getProtocolEra()).toBe('modern');
    return client as unknown as AnyClient;
  }
  const client = new LegacyClient(info);
  await client.connect(
    transport === 'stdio'
      ? new LegacyStdio({ command: process.execPath, args: [ENTRY], env: env() })
      : new LegacyHttp(new URL(http.url)),
  );
  expect(client.getServerVersion()?.name).toBe('streamer-analytics-mcp');
  return client as unknown as AnyClient;
}

const textOf = (result: Record<string, unknown>) =>
  (result.content as Array<{ text: string }>)[0]?.text ?? '';

describe.each([
  ['modern', 'stdio'],
  ['modern', 'http'],
  ['legacy', 'stdio'],
  ['legacy', 'http'],
] as const)('%s client over %s', (era, transport) => {
  let client: AnyClient;
  beforeAll(async () => {
    client = await connect(era, transport);
  });
  afterAll(() => client?.close());

  it('lists the twelve tools', async () => {
    expect((await client.listTools()).tools.map((t) => t.name)).toContain('investigate_botting');
    expect((await client.listTools()).tools).toHaveLength(15);
  });

  it('answers a call in both channels', async () => {
    const mint = ids(sim, 'platform_a', 1)[0];
    const result = await client.callTool({ name: 'get_streamer_core', arguments: { mint } });
    expect(result.isError).toBeFalsy();
    expect(textOf(result)).toMatch(/^Streamer "/);
    expect((result.structuredContent as { summary: string }).summary).toBe(textOf(result).split('\n')[0]);
  });

  it('refuses bad arguments by name, sending nothing', async () => {
    const before = sim.requests.length;
    const result = await client.callTool({ name: 'analyze_botting', arguments: { mintIds: [], hours: 0 } });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain('- mintIds: got a list of 0; allowed: a list of 1 to 50 items');
    expect(sim.requests.length).toBe(before);
  });

  it('reports progress per finished request of an investigation', async () => {
    const progress: number[] = [];
    const result = await client.callTool(
      // The eras share one HTTP server, whose short cache would answer the second from the first's data
      // (no requests, no progress): each era asks over its own `hours`.
      {
        name: 'investigate_botting',
        arguments: { mintIds: ids(sim, 'platform_a', 60), hours: era === 'modern' ? 24 : 12 },
      },
      ...(era === 'modern' ? [] : [undefined]),
      { onprogress: (p: { progress: number }) => progress.push(p.progress) },
    );
    expect(textOf(result)).toMatch(
      /^Botting investigation: \d+ of \d+ analysed tokens flagged HIGH, .*\(60 requested/,
    );
    // Over a pipe, both SDKs' clients handle a notification a microtask after reading it: progress that
    // shares one read with the result (the server writes it first) finds the call finished and is dropped.
    // What arrives is the start of the sequence; over HTTP each event is its own read, so all of it.
    if (transport === 'http') expect(progress).toEqual([1, 2, 3]);
    else expect([1, 2, 3].slice(0, progress.length)).toEqual(progress);
    expect(progress[0]).toBe(1);
  });
});

describe('both eras against one HTTP server at once', () => {
  it('serves a modern and a legacy client side by side', async () => {
    const [modern, legacy] = await Promise.all([connect('modern', 'http'), connect('legacy', 'http')]);
    const mints = ids(sim, 'platform_a', 20);
    const results = await Promise.all(
      mints.map((mint, i) =>
        (i % 2 ? modern : legacy).callTool({ name: 'get_streamer_core', arguments: { mint } }),
      ),
    );
    expect(results.filter((r) => r.isError)).toEqual([]);
    await Promise.all([modern.close(), legacy.close()]);
  });
});
