// The one way the tests, the browser harness, the conformance run and the benchmarks start the built server
// with --http: spawned on a free loopback port, ready once it prints its address on stderr.
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

// From the sources (tests) or from dist/scripts (conformance, the bench).
const root = fileURLToPath(new URL(import.meta.url.includes('/dist/') ? '../..' : '..', import.meta.url));

/** The built server's entry point. */
export const SERVER_ENTRY = join(root, 'dist/server/index.js');

export interface HttpServerProcess {
  child: ChildProcess;
  /** The MCP endpoint, `http://127.0.0.1:PORT/mcp`. */
  url: string;
  /** The same without `/mcp` (for /healthz, /readyz). */
  base: string;
  /** Everything the server wrote to stderr so far (its log). */
  stderr(): string;
  /** Ends the server (SIGTERM unless told) and waits for it to exit. */
  stop(signal?: NodeJS.Signals): Promise<void>;
}

const running = new Set<ChildProcess>();
// A test run that fails or is interrupted leaves no server behind.
process.once('exit', () => {
  for (const child of running) child.kill();
});

/**
 * Starts `node ENTRY --http --port 0 ...args` and resolves once it says where it listens; rejects with its
 * log if it exits first. `env` is the whole environment of the server (default: PATH only), so that no
 * variable of the caller's leaks in by accident.
 */
export async function startHttpServer(
  options: { entry?: string; args?: string[]; env?: NodeJS.ProcessEnv } = {},
): Promise<HttpServerProcess> {
  const child = spawn(
    process.execPath,
    [options.entry ?? SERVER_ENTRY, '--http', '--port', '0', ...(options.args ?? [])],
    {
      // The test run's own data folder (vitest.config.ts) goes along, so history never reaches the real home.
      env: {
        ...(process.env.XDG_DATA_HOME ? { XDG_DATA_HOME: process.env.XDG_DATA_HOME } : {}),
        ...(options.env ?? { PATH: process.env.PATH ?? '' }),
      },
      stdio: ['ignore', 'ignore', 'pipe'],
    },
  );
  running.add(child);
  child.once('exit', () => running.delete(child));
  let stderr = '';
  const url = await new Promise<string>((resolve, reject) => {
    child.stderr?.on('data', (chunk) => {
      stderr += String(chunk);
      const m = /at (http:\/\/\S+\/mcp)/.exec(stderr);
      if (m?.[1]) resolve(m[1]);
    });
    child.once('exit', (code, signal) =>
      reject(new Error(`the server exited (${code ?? signal}) before listening: ${stderr}`)),
    );
    child.once('error', reject);
  });
  return {
    child,
    url,
    base: url.replace(/\/mcp$/, ''),
    stderr: () => stderr,
    async stop(signal = 'SIGTERM') {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = once(child, 'exit');
      child.kill(signal);
      await exited;
    },
  };
}
