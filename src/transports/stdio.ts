import type { Server } from '@modelcontextprotocol/server';
import { serveStdio as serve } from '@modelcontextprotocol/server/stdio';

/**
 * Serves MCP on stdin/stdout until the client closes stdin or a signal arrives; then cleans up and exits 0.
 * Both eras from one factory: a 2026-07-28 client (`server/discover`) and a 2025 one (`initialize`).
 */
export function serveStdio(makeServer: () => Server, cleanup: () => Promise<void>): void {
  let closing = false;
  const handle = serve(makeServer);
  const shutdown = async () => {
    if (closing) return;
    closing = true;
    await Promise.allSettled([handle.close(), cleanup()]);
    process.exit(0);
  };
  // A client that closes our stdout (while a call is in flight, say) makes the next write fail with EPIPE:
  // the client is gone, so this is the end of the session, not a crash.
  process.stdout.on('error', shutdown);
  process.stdin.on('end', shutdown);
  process.stdin.on('close', shutdown);
  process.on('SIGINT', shutdown);
  process.on('SIGTERM', shutdown);
}
