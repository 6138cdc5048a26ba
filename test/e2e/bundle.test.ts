// The Claude Desktop bundle: validated with the official CLI, packed, unpacked into a temporary folder,
// and started exactly as its manifest's mcp_config says, substituted by the mcpb package's own
// getMcpConfigForManifest (defaults applied, a boolean setting passed as "true" or "false").
import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import * as nodeModule from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { getMcpConfigForManifest } from '@anthropic-ai/mcpb';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pkg from '../../package.json' with { type: 'json' };
import { demoCalls } from '../../scripts/demo.js';
import { startHttpServer } from '../../scripts/http-server.js';
import { nodeBinary } from '../../scripts/node-version.js';
import { loadedAtStart } from '../../scripts/pack.js';
import type { Simulator } from '../../src/simulator/server.js';
import { ids, startSim } from '../helpers.js';

const run = promisify(execFile);
const root = fileURLToPath(new URL('../..', import.meta.url));
const mcpb = join(root, 'node_modules/@anthropic-ai/mcpb/dist/cli/cli.js');
const bundle = join(root, `${pkg.name}-${pkg.version}.mcpb`);

let dir: string;
let sim: Simulator;
let manifest: Parameters<typeof getMcpConfigForManifest>[0]['manifest'];

/**
 * What the desktop app does: `${__dirname}` becomes the folder, settings left blank take the manifest's
 * default, and one without a default stays `${user_config.NAME}`.
 */
async function start(
  settings: Record<string, string | boolean>,
  extraArgs: string[] = [],
  node = process.execPath,
) {
  const config = await getMcpConfigForManifest({
    manifest,
    extensionPath: dir,
    systemDirs: {},
    userConfig: settings,
    pathSeparator: '/',
  });
  if (!config) throw new Error('the desktop app would not start it: a required setting is missing');
  const transport = new StdioClientTransport({
    command: config.command === 'node' ? node : config.command,
    args: [...(config.args ?? []), ...extraArgs],
    env: { PATH: process.env.PATH ?? '', ...config.env },
    stderr: 'ignore',
  });
  const client = new Client({ name: 'bundle-test', version: '1.0.0' });
  await client.connect(transport);
  return client;
}

const textOf = (result: Record<string, unknown>) =>
  (result.content as Array<{ text: string }>)[0]?.text ?? '';

beforeAll(async () => {
  await run(process.execPath, [join(root, 'dist/scripts/pack.js')], { cwd: root });
  dir = mkdtempSync(join(tmpdir(), 'sa-mcpb-'));
  await run(process.execPath, [mcpb, 'unpack', bundle, dir]);
  manifest = JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8'));
  sim = await startSim();
}, 60_000);
afterAll(async () => {
  rmSync(dir, { recursive: true, force: true });
  await sim?.close();
});

describe('the MCP Bundle', () => {
  it('manifest.json passes the official validator', async () => {
    const { stdout } = await run(process.execPath, [mcpb, 'validate', join(root, 'manifest.json')]);
    expect(stdout).toContain('Manifest schema validation passes');
  });

  it('holds the bundled server (entry plus lazily loaded chunks), no node_modules, its icon, under 1 MiB', () => {
    expect(statSync(join(dir, 'server/index.js')).isFile()).toBe(true);
    // The same file is the package's `bin`: without its hashbang the installed command would not run.
    expect(readFileSync(join(dir, 'server/index.js'), 'utf8')).toMatch(/^#!\/usr\/bin\/env node\n/);
    expect(statSync(join(dir, 'server/chunks')).isDirectory()).toBe(true);
    expect(() => statSync(join(dir, 'node_modules'))).toThrow();
    expect(readFileSync(join(dir, 'icon.png')).subarray(1, 4).toString()).toBe('PNG');
    expect(statSync(bundle).size).toBeLessThan(1024 * 1024);
  });

  // SDK v2 brings the wire codecs of both protocol eras (about 180 KiB minified, up from v1's 90); Ajv
  // would add 290 more. The server's own code is about 125 KiB of it (reading any upstream's shapes, the
  // figures and the views' data took it from 425 to 435 KiB). The bench keeps the cold start itself
  // within 4x of a Node that answers at once.
  it('loads at most 450 KiB at start, without Ajv (the SDK needs it only for elicitation)', () => {
    const entry = join(dir, 'server/index.js');
    expect(loadedAtStart(entry)).toBeLessThan(450 * 1024);
    const everything = readdirSync(join(dir, 'server'), { recursive: true })
      .filter((f) => String(f).endsWith('.js'))
      .map((f) => readFileSync(join(dir, 'server', String(f)), 'utf8'))
      .join('\n');
    expect(everything).not.toContain('strictSchema');
  });

  it('starts from the unpacked folder as mcp_config says, and answers from the configured service', async () => {
    // timeout_ms, max_retries and demo left blank: the manifest's defaults (15000, 2, false).
    const client = await start({ api_key: sim.apiKey, base_url: sim.url });
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toContain('investigate_botting');
    const result = await client.callTool({
      name: 'analyze_botting',
      arguments: { mintIds: ids(sim, 'platform_a', 3) },
    });
    expect(result.isError).toBeFalsy();
    expect(textOf(result)).toMatch(
      /^Botting analysis: \d+ of \d+ analysed tokens flagged HIGH \(3 requested/,
    );
    await client.close();
  });

  it('with Demo mode off and the key and base URL left blank, lists its tools and answers with the setup guide', async () => {
    const client = await start({ demo: false });
    expect((await client.listTools()).tools.length).toBeGreaterThanOrEqual(10);
    const result = await client.callTool({ name: 'check_health', arguments: {} });
    expect(result.isError).toBe(true);
    // Inside Claude Desktop the settings page is where they are made; --demo is no use there.
    expect(textOf(result)).toContain(
      'The Streamer Analytics extension is not configured yet: API key and Service base URL are empty.',
    );
    expect(textOf(result)).toContain('Settings → Extensions → Streamer Analytics → Configure');
    expect(textOf(result)).toContain('turn on "Demo mode (simulated data)" there');
    expect(textOf(result)).not.toMatch(/--demo|STREAMER_ANALYTICS_/);
    await client.close();
  });

  it('logs readable error names, minified as it is', async () => {
    // A base URL where nothing listens: the call fails with a connection error, logged at warn.
    const config = await getMcpConfigForManifest({
      manifest,
      extensionPath: dir,
      systemDirs: {},
      userConfig: { api_key: 'bundle-test-key-0001', base_url: 'http://127.0.0.1:1', max_retries: '0' },
      pathSeparator: '/',
    });
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: config?.args ?? [],
      env: { PATH: process.env.PATH ?? '', ...config?.env },
      stderr: 'pipe',
    });
    let log = '';
    transport.stderr?.on('data', (chunk) => {
      log += String(chunk);
    });
    const client = new Client({ name: 'bundle-test', version: '1.0.0' });
    await client.connect(transport);
    const result = await client.callTool({ name: 'check_health', arguments: {} });
    expect(result.isError).toBe(true);
    await client.close();
    const failed = log.split('\n').find((line) => line.includes('tool call failed'));
    expect(failed).toBeDefined();
    expect(JSON.parse(failed as string).error.name).toBe('ConnectionError');
  });

  it('starts on the minimum Node its manifest declares', async () => {
    const node = await minimumNode();
    const client = await start({ api_key: sim.apiKey, base_url: sim.url }, [], node);
    const result = await client.callTool({
      name: 'get_streamer_core',
      arguments: { mint: ids(sim, 'platform_a', 1)[0] },
    });
    expect(result.isError).toBeFalsy();
    await client.close();
  }, 120_000);

  it('with Demo mode on, answers every tool with simulated data on the minimum Node, sending nothing upstream', async () => {
    const node = await minimumNode();
    // A key and base URL filled in as well: Demo mode wins, and the configured service hears nothing.
    const before = sim.requests.length;
    const client = await start({ demo: true, api_key: sim.apiKey, base_url: sim.url }, [], node);
    const calls = demoCalls();
    const { tools } = await client.listTools();
    expect(new Set(calls.map((c) => c.tool))).toEqual(new Set(tools.map((t) => t.name)));
    for (const { tool, args, invalid } of calls) {
      const result = await client.callTool({ name: tool, arguments: args });
      if (invalid) {
        expect(result.isError, tool).toBe(true);
        expect(textOf(result)).toMatch(/hours/);
        continue;
      }
      expect(result.isError, `${tool}: ${textOf(result)}`).toBeFalsy();
      expect(textOf(result), tool).toMatch(/^SIMULATED DATA \(demo mode\)/);
    }
    expect(sim.requests.length).toBe(before);
    await client.close();
  }, 120_000);
});

describe('STREAMER_ANALYTICS_DEMO=true with --http', () => {
  it('serves the simulator over Streamable HTTP, as --http --demo does', async () => {
    const server = await startHttpServer({
      entry: join(dir, 'server/index.js'),
      env: { PATH: process.env.PATH ?? '', STREAMER_ANALYTICS_DEMO: 'true' },
    });
    try {
      const client = new Client({ name: 'bundle-test', version: '1.0.0' });
      await client.connect(new StreamableHTTPClientTransport(new URL(server.url)));
      const result = await client.callTool({ name: 'get_analytics_overview', arguments: {} });
      expect(result.isError).toBeFalsy();
      expect(textOf(result)).toMatch(/^SIMULATED DATA \(demo mode\)/);
      await client.close();
    } finally {
      await server.stop();
    }
  });
});

describe('the bundled command on a Node with a compile cache (22.1+)', () => {
  it('writes V8 compile cache into the OS temp folder, and starts from it the next time', async () => {
    // The Node running the tests when it has one (npm test runs the dev dependency's 22.23.3); else fetched.
    const node = 'enableCompileCache' in nodeModule ? process.execPath : await nodeBinary('22.23.3');
    const tmp = mkdtempSync(join(tmpdir(), 'sa-cache-'));
    try {
      for (let i = 0; i < 2; i++) {
        const transport = new StdioClientTransport({
          command: node,
          args: [join(dir, 'server/index.js'), '--demo'],
          env: { PATH: process.env.PATH ?? '', TMPDIR: tmp },
          stderr: 'ignore',
        });
        const client = new Client({ name: 'bundle-test', version: '1.0.0' });
        await client.connect(transport);
        const result = await client.callTool({ name: 'check_health', arguments: {} });
        expect(textOf(result)).toMatch(/^SIMULATED DATA/);
        await client.close();
      }
      const cached = readdirSync(join(tmp, 'node-compile-cache'), { recursive: true });
      expect(cached.length).toBeGreaterThan(0);
    } finally {
      rmSync(tmp, { recursive: true, force: true });
    }
  }, 120_000);
});

/** The manifest's minimum Node (`>=X.Y.Z`), fetched once. */
async function minimumNode(): Promise<string> {
  const minimum = /^>=(\d+\.\d+\.\d+)$/.exec(manifest.compatibility?.runtimes?.node ?? '')?.[1] as string;
  const node = await nodeBinary(minimum);
  const { stdout } = await run(node, ['--version']);
  expect(stdout.trim()).toBe(`v${minimum}`);
  return node;
}
