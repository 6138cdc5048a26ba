// The built server, spawned over stdio as an MCP client would, driven by the SDK's real Client.
import { execFile, spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pkg from '../../package.json' with { type: 'json' };
import type { Simulator } from '../../src/simulator/server.js';
import { ids, startSim } from '../helpers.js';

const ENTRY = fileURLToPath(new URL('../../dist/server/index.js', import.meta.url));
const run = promisify(execFile);

async function spawnClient(args: string[], env: Record<string, string>) {
  const stderr: string[] = [];
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [ENTRY, ...args],
    env: { PATH: process.env.PATH ?? '', ...env },
    stderr: 'pipe',
  });
  transport.stderr?.on('data', (chunk) => stderr.push(String(chunk)));
  const client = new Client({ name: 'e2e', version: '1.0.0' });
  await client.connect(transport);
  return { client, stderr };
}

const textOf = (result: Record<string, unknown>) =>
  (result.content as Array<{ text: string }>)[0]?.text ?? '';

let sim: Simulator;
beforeAll(async () => {
  sim = await startSim();
});
afterAll(async () => {
  await sim.close();
});

describe('the built server over stdio', () => {
  it('lists the tools and answers from the upstream named in the environment', async () => {
    const { client, stderr } = await spawnClient([], {
      STREAMER_ANALYTICS_API_KEY: sim.apiKey,
      STREAMER_ANALYTICS_BASE_URL: `${sim.url}/`,
      STREAMER_ANALYTICS_LOG_LEVEL: 'debug',
    });
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toContain('analyze_botting');
    const result = await client.callTool({
      name: 'analyze_botting',
      arguments: { mintIds: ids(sim, 'platform_a', 3) },
    });
    expect(result.isError).toBeFalsy();
    expect(textOf(result)).toMatch(
      /^Botting analysis: \d+ of \d+ analysed tokens flagged HIGH \(3 requested/,
    );
    expect((result.structuredContent as { summary: string }).summary).toMatch(/^Botting analysis/);
    await client.close();
    // Logs went to stderr, and never with the key in them.
    expect(stderr.join('')).toContain('"msg":"tool call"');
    expect(stderr.join('')).not.toContain(sim.apiKey);
  });

  it('starts without a key or base URL, lists its tools, and answers with the setup guide', async () => {
    const { client } = await spawnClient([], {
      STREAMER_ANALYTICS_API_KEY: '',
      STREAMER_ANALYTICS_BASE_URL: ' ',
    });
    expect((await client.listTools()).tools).toHaveLength(11);
    const result = await client.callTool({ name: 'check_health', arguments: {} });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain(
      'STREAMER_ANALYTICS_API_KEY and STREAMER_ANALYTICS_BASE_URL are not set',
    );
    expect(textOf(result)).toContain('--demo');
    await client.close();
    // A setting still reading `${user_config.…}` comes from a desktop extension: its settings page it is.
    const bundled = await spawnClient([], {
      STREAMER_ANALYTICS_API_KEY: '${user_config.api_key}',
      STREAMER_ANALYTICS_BASE_URL: '',
    });
    const guide = textOf(await bundled.client.callTool({ name: 'check_health', arguments: {} }));
    expect(guide).toContain('Settings → Extensions → Streamer Analytics → Configure');
    await bundled.client.close();
  });

  it('--demo answers from the embedded simulator, with no key and no network', async () => {
    const { client } = await spawnClient(['--demo'], {});
    const result = await client.callTool({ name: 'get_analytics_overview', arguments: {} });
    expect(textOf(result)).toMatch(/^SIMULATED DATA \(demo mode\)/);
    expect(textOf(result)).toContain('160 streamers');
    await client.close();
  });

  it('--version and --help', async () => {
    expect((await run(process.execPath, [ENTRY, '--version'])).stdout.trim()).toBe(pkg.version);
    const help = (await run(process.execPath, [ENTRY, '--help'])).stdout;
    expect(help).toContain('--demo');
    expect(help).toContain('STREAMER_ANALYTICS_API_KEY');
  });

  it('an unknown flag exits 2 with a hint, nothing on stdout', async () => {
    const failure = await run(process.execPath, [ENTRY, '--bogus']).catch(
      (e: { code: number; stdout: string; stderr: string }) => e,
    );
    expect(failure).toMatchObject({ code: 2, stdout: '' });
    expect((failure as { stderr: string }).stderr).toContain('--help');
  });

  it.each([[[]], [['--demo']]])('exits 0 when the client closes stdin (args %j)', async (args) => {
    const child = spawn(process.execPath, [ENTRY, ...args], { stdio: ['pipe', 'pipe', 'pipe'] });
    child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' })}\n`);
    await once(child.stdout, 'data');
    child.stdin.end();
    const [code] = await once(child, 'exit');
    expect(code).toBe(0);
  });
});
