// run_analysis in the built server with --http: the server answers /healthz and other calls while a program
// loops, and a program's requests stay within what one HTTP request may cause upstream.
import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Simulator } from '../../src/simulator/server.js';
import { startSim } from '../helpers.js';

const ENTRY = fileURLToPath(new URL('../../dist/server/index.js', import.meta.url));
let sim: Simulator;
let child: ChildProcess;
let base: string;
let client: Client;

beforeAll(async () => {
  sim = await startSim();
  child = spawn(process.execPath, [ENTRY, '--http', '--port', '0'], {
    env: {
      PATH: process.env.PATH ?? '',
      STREAMER_ANALYTICS_API_KEY: sim.apiKey,
      STREAMER_ANALYTICS_BASE_URL: sim.url,
      STREAMER_ANALYTICS_ANALYSIS_TIMEOUT_MS: '4000',
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  const url = await new Promise<string>((resolve, reject) => {
    child.stderr?.on('data', (chunk) => {
      stderr += String(chunk);
      const m = /at (http:\/\/\S+\/mcp)/.exec(stderr);
      if (m?.[1]) resolve(m[1]);
    });
    child.on('exit', (code) => reject(new Error(`exited ${code}: ${stderr}`)));
  });
  base = url.replace(/\/mcp$/, '');
  client = new Client({ name: 'analysis-http-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
});
afterAll(async () => {
  await client?.close();
  child?.kill();
  await sim?.close();
});

const textOf = (r: unknown) => ((r as { content: Array<{ text: string }> }).content[0]?.text ?? '') as string;

it('answers /healthz and another call while a program loops, then ends the loop at the time limit', async () => {
  const looping = client.callTool({ name: 'run_analysis', arguments: { code: 'while (true) {}' } });
  // Under way: the other answers come while it loops, not after.
  let ended = false;
  void looping.finally(() => {
    ended = true;
  });
  expect(await (await fetch(`${base}/healthz`)).json()).toEqual({ status: 'ok' });
  const health = await client.callTool({ name: 'check_health', arguments: {} });
  expect(health.isError).toBeFalsy();
  expect(ended).toBe(false);
  const out = await looping;
  expect(out.isError).toBe(true);
  expect(textOf(out)).toContain('[error: analysis_timeout · final]');
});

it("stays within one HTTP request's upstream allowance, and says which limit it met", async () => {
  sim.reset();
  const out = await client.callTool({
    name: 'run_analysis',
    arguments: { code: 'for (let i = 0; i < 150; i++) await api.check_health();\nreturn "done";' },
  });
  expect(out.isError).toBe(true);
  expect(textOf(out)).toContain(
    '100 upstream requests in one run (the upstream allowance of one --http request)',
  );
  expect(sim.requests).toHaveLength(100);
});
