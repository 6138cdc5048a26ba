// MCP over Streamable HTTP, stateless: every POST /mcp gets a fresh server and transport, so any instance
// can answer any request. Loaded only in --http mode; its parts, guards in order, are in http/.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createHandle } from './http/handle.js';
import { isLoopback, isLoopbackAddress } from './http/identity.js';
import type { HttpDeps, HttpOptions } from './http/options.js';
import { writeFault } from './http/refusal.js';

export { type Caller, HTTP_DEFAULTS, type HttpDeps, type HttpOptions } from './http/options.js';

export async function serveHttp(options: HttpOptions, deps: HttpDeps) {
  if (!options.token && !isLoopback(options.host)) {
    throw new Error(
      `refusing to listen on ${options.host} without STREAMER_ANALYTICS_HTTP_TOKEN: anyone who can reach it could use the server. Set a token, or bind 127.0.0.1.`,
    );
  }
  const http = createHandle(options, deps);
  const server = createServer((req, res) => {
    http.handle(req, res).catch((error: unknown) => {
      deps.logger.error('HTTP request failed', { error });
      writeFault(res);
    });
  });
  server.headersTimeout = 10_000;
  server.keepAliveTimeout = 5_000;

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, resolve);
  });
  const { port, address } = server.address() as AddressInfo;
  // What a name resolved to is what counts: without a token, the address bound must be loopback.
  if (!options.token && !isLoopbackAddress(address)) {
    server.close();
    throw new Error(
      `refusing to listen on ${options.host} (${address}) without STREAMER_ANALYTICS_HTTP_TOKEN: it is not a loopback address. Set a token, or bind 127.0.0.1.`,
    );
  }
  const shown = options.host.includes(':') ? `[${options.host}]` : options.host;

  return {
    url: `http://${shown}:${port}/mcp`,
    async close() {
      http.close();
      server.close();
      server.closeIdleConnections();
      const deadline = Date.now() + options.shutdownGraceMs;
      while (http.active > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 25));
      server.closeAllConnections();
    },
  };
}
