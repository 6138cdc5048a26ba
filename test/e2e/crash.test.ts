// Whatever a peer does, the built server answers or ends cleanly: no crash, no stack trace.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { connect as netConnect } from 'node:net';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Simulator } from '../../src/simulator/server.js';
import { ids, startSim } from '../helpers.js';

const ENTRY = fileURLToPath(new URL('../../dist/server/index.js', import.meta.url));

let sim: Simulator;
beforeAll(async () => {
  sim = await startSim();
});
afterAll(() => sim.close());

/** Sends raw bytes on a fresh connection; resolves with whatever came back before the close. */
function raw(port: number, bytes: string): Promise<string> {
  return new Promise((resolve) => {
    let got = '';
    const socket = netConnect(port, '127.0.0.1', () => socket.write(bytes));
    socket.on('data', (d) => {
      got += String(d);
    });
    socket.on('error', () => resolve(got));
    socket.on('close', () => resolve(got));
    setTimeout(() => socket.destroy(), 2_000);
  });
}

describe('--http against malformed requests', () => {
  it('answers every request line, however broken, and keeps serving', async () => {
    const child = spawn(process.execPath, [ENTRY, '--http', '--port', '0'], {
      env: { PATH: process.env.PATH ?? '' },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr?.on('data', (c) => {
      stderr += String(c);
    });
    const port = await new Promise<number>((resolve, reject) => {
      child.stderr?.on('data', () => {
        const m = /127\.0\.0\.1:(\d+)\/mcp/.exec(stderr);
        if (m) resolve(Number(m[1]));
      });
      child.on('exit', (code) => reject(new Error(`exited ${code}: ${stderr}`)));
    });
    const host = `Host: 127.0.0.1:${port}\r\n`;
    const targets = ['http://[', 'http://[::1', 'http://a b/mcp', 'http://%zz/mcp', '*', 'mcp', '//x'];
    for (const target of targets) {
      for (const method of ['GET', 'POST', 'DELETE', 'OPTIONS']) {
        const answer = await raw(
          port,
          `${method} ${target} HTTP/1.1\r\n${host}Connection: close\r\nContent-Length: 0\r\n\r\n`,
        );
        expect(answer, `${method} ${target}`).toMatch(/^HTTP\/1\.1 (400|404|405) /);
      }
    }
    // An absolute-form target that does parse reaches the same routes as its path.
    expect(
      await raw(port, `GET http://127.0.0.1:${port}/healthz HTTP/1.1\r\n${host}Connection: close\r\n\r\n`),
    ).toMatch(/^HTTP\/1\.1 200 /);
    expect(await raw(port, `GET / HTTP/1.1\r\n${host}X: \u0000\r\n\r\n`)).toMatch(/^HTTP\/1\.1 400 /);
    expect(child.exitCode).toBe(null);
    expect((await fetch(`http://127.0.0.1:${port}/healthz`)).status).toBe(200);
    expect(stderr).not.toMatch(/TypeError|Unhandled|at .*\.js:\d+/);
    child.kill();
  });
});

describe('stdio when the client goes away', () => {
  it('exits 0 without a stack trace when its stdout is closed during a call', async () => {
    const child = spawn(process.execPath, [ENTRY], {
      env: {
        PATH: process.env.PATH ?? '',
        STREAMER_ANALYTICS_API_KEY: sim.apiKey,
        STREAMER_ANALYTICS_BASE_URL: sim.url,
      },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (c) => {
      stderr += String(c);
    });
    const send = (message: object) => child.stdin.write(`${JSON.stringify(message)}\n`);
    send({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'x', version: '1' } },
    });
    await once(child.stdout, 'data');
    send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    sim.inject({ delayMs: 300 });
    send({
      jsonrpc: '2.0',
      id: 2,
      method: 'tools/call',
      params: { name: 'analyze_botting', arguments: { mintIds: ids(sim, 'platform_a', 3) } },
    });
    child.stdout.destroy();
    const [code] = await once(child, 'exit');
    expect(code).toBe(0);
    expect(stderr).not.toMatch(/EPIPE|Error|at .*\.js:\d+/);
  });
});
