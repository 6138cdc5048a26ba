import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';

/** Serves MCP on stdin/stdout until the client closes stdin or a signal arrives; then cleans up and exits 0. */
export async function serveStdio(server: Server, cleanup: () => Promise<void>): Promise<void> {
  let closing = false;
  const shutdown = async () => {
    if (closing) return;
    closing = true;
    await Promise.allSettled([server.close(), cleanup()]);
    process.exit(0);
  };
  // A client that closes our stdout (while a call is in flight, say) makes the next write fail with EPIPE:
  // the client is gone, so this is the end of the session, not a crash.
  process.stdout.on('error', shutdown);
  process.stdin.on('end', shutdown);
  process.stdin.on('close', shutdown);
  process.on('SIGINT', shutdown);
  process.on('SIGTERM', shutdown);
  await server.connect(new StdioServerTransport());
}
