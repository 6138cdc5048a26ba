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
  const refusal = (where: string, why: string) =>
    new Error(
      `refusing to listen on ${where} without STREAMER_ANALYTICS_HTTP_TOKEN: ${why}. Set a token, or bind 127.0.0.1.`,
    );
  if (!options.token && !isLoopback(options.host))
    throw refusal(options.host, 'anyone who can reach it could use the server');
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
    throw refusal(`${options.host} (${address})`, 'it is not a loopback address');
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
