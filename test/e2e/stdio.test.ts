// The built server, spawned over stdio as an MCP client would, driven by the SDK's real Client.
import { execFile, spawn } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pkg from '../../package.json' with { type: 'json' };
import { REFERENCE_URI } from '../../src/reference.js';
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
    expect((await client.listTools()).tools).toHaveLength(15);
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

  it('skips an oversized input line, says so on stderr, and goes on answering', async () => {
    const child = spawn(process.execPath, [ENTRY, '--demo'], { stdio: ['pipe', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (c) => {
      stderr += String(c);
    });
    const answers: Array<Record<string, unknown>> = [];
    let out = '';
    child.stdout.on('data', (c) => {
      out += String(c);
      const lines = out.split('\n');
      out = lines.pop() ?? '';
      for (const line of lines) if (line) answers.push(JSON.parse(line));
    });
    const big = { jsonrpc: '2.0', id: 7, method: 'ping', params: { pad: 'x'.repeat(11 * 1024 * 1024) } };
    child.stdin.write(`${JSON.stringify(big)}\n`);
    child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id: 8, method: 'ping' })}\n`);
    for (let i = 0; i < 500 && answers.length < 2; i++) await new Promise((r) => setTimeout(r, 20));
    expect(answers).toEqual([
      { jsonrpc: '2.0', id: 7, error: { code: -32600, message: expect.stringContaining('too large') } },
      { jsonrpc: '2.0', id: 8, result: {} },
    ]);
    expect(stderr).toContain('skipped an input line over 1048576 bytes');
    child.stdin.end();
    const [code] = await once(child, 'exit');
    expect(code).toBe(0);
  });

  it('refuses a `__proto__` argument like any other unknown parameter, written out or escaped', async () => {
    const child = spawn(process.execPath, [ENTRY, '--demo'], { stdio: ['pipe', 'pipe', 'ignore'] });
    const answers: Array<{ id: number; result?: { isError?: boolean; content: Array<{ text: string }> } }> =
      [];
    let out = '';
    child.stdout.on('data', (c) => {
      out += String(c);
      const lines = out.split('\n');
      out = lines.pop() ?? '';
      for (const line of lines) if (line) answers.push(JSON.parse(line));
    });
    const call = (id: number, args: string) =>
      `{"jsonrpc":"2.0","id":${id},"method":"tools/call","params":{"name":"get_activity_heatmap","arguments":${args}}}\n`;
    child.stdin.write(call(1, '{"__proto__":{"polluted":true}}'));
    child.stdin.write(call(2, '{"__proto__":5}'));
    child.stdin.write(call(3, '{"\\u005f_proto__":null}'));
    for (let i = 0; i < 300 && answers.length < 3; i++) await new Promise((r) => setTimeout(r, 20));
    expect(answers.map((a) => a.id).sort()).toEqual([1, 2, 3]);
    for (const answer of answers) {
      expect(answer.result?.isError).toBe(true);
      expect(answer.result?.content[0]?.text).toContain('unknown parameter "__proto__"');
    }
    child.stdin.end();
    await once(child, 'exit');
  });

  it('exits when stdin closes, even in the middle of an oversized line', async () => {
    const child = spawn(process.execPath, [ENTRY, '--demo'], { stdio: ['pipe', 'pipe', 'pipe'] });
    child.stdin.write(
      `{"jsonrpc":"2.0","id":1,"method":"ping","params":{"pad":"${'x'.repeat(11 * 1024 * 1024)}`,
    );
    child.stdin.end();
    const [code] = await once(child, 'exit');
    expect(code).toBe(0);
  });

  it('stops reading when the client does not read its answers: memory stays bounded, and it still exits', async () => {
    const child = spawn(process.execPath, [ENTRY, '--demo'], { stdio: ['pipe', 'pipe', 'ignore'] });
    child.stdout.pause();
    const rssMiB = () =>
      Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'))?.[1]) / 1024;
    const init = {
      jsonrpc: '2.0',
      id: 0,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'x', version: '1' } },
    };
    child.stdin.write(`${JSON.stringify(init)}\n`);
    await once(child.stdout, 'readable');
    const before = rssMiB();
    // 4,000 reads of the API reference (about 25 KiB each): 100 MiB of answers nobody reads.
    let id = 1;
    for (let round = 0; round < 20; round++) {
      const read = () => ({
        jsonrpc: '2.0',
        id: id++,
        method: 'resources/read',
        params: { uri: REFERENCE_URI },
      });
      child.stdin.write(Array.from({ length: 200 }, () => `${JSON.stringify(read())}\n`).join(''));
      await new Promise((r) => setTimeout(r, 50));
    }
    await new Promise((r) => setTimeout(r, 1_000));
    expect(rssMiB() - before).toBeLessThan(40);
    child.stdin.end();
    const [code] = await once(child, 'exit');
    expect(code).toBe(0);
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
