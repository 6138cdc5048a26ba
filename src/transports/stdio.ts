import { PassThrough } from 'node:stream';
import type { Server } from '@modelcontextprotocol/server';
import { StdioServerTransport, serveStdio as serve } from '@modelcontextprotocol/server/stdio';
import { keepProtoArgumentsInLine } from './proto.js';

const limits = {
  maxLineBytes: 1024 * 1024,
  /** Output the client has not read yet past which no further input is handled. */
  outputHighWater: 1024 * 1024,
  maxWaitingBytes: 4 * 1024 * 1024,
};

// MCP on stdin/stdout until stdin ends or a signal comes. Our reader hands the SDK one line at a time: a line
// over `maxLineBytes` is skipped (the SDK's would close the session); input waits while answers go unread.
export function serveStdio(makeServer: () => Server, cleanup: () => Promise<void>): void {
  let closing = false;
  const input = new PassThrough();
  const handle = serve(makeServer, { transport: new StdioServerTransport(input, process.stdout as never) });
  const shutdown = async () => {
    if (closing) return;
    closing = true;
    input.end();
    await Promise.allSettled([handle.close(), cleanup()]);
    process.exit(0);
  };

  let pending: Buffer[] = [];
  let pendingBytes = 0;
  let skipping = false;
  const lines: Buffer[] = [];
  let waiting = 0;
  let delivering = false;

  const skip = (start: Buffer) => {
    process.stderr.write(
      `streamer-analytics-mcp: skipped an input line over ${limits.maxLineBytes} bytes: not read as a message (MCP messages to this server are small)\n`,
    );
    const id = leadingId(start.subarray(0, 256).toString('utf8'));
    if (id !== undefined) {
      const error = { code: -32600, message: `Request too large: over ${limits.maxLineBytes} bytes` };
      process.stdout.write(`${JSON.stringify({ jsonrpc: '2.0', id, error })}\n`);
    }
  };

  const deliver = async () => {
    if (delivering) return;
    delivering = true;
    while (lines.length && !closing) {
      if (process.stdout.writableLength > limits.outputHighWater) {
        await new Promise((resolve) => process.stdout.once('drain', resolve));
        continue;
      }
      const line = lines.shift() as Buffer;
      waiting -= line.length;
      if (waiting <= limits.maxWaitingBytes) process.stdin.resume();
      input.write(keepProtoArgumentsInLine(line));
      // The answer to that line is written before the next is read.
      await new Promise((resolve) => setImmediate(resolve));
    }
    delivering = false;
  };

  process.stdin.on('data', (data: Buffer | string) => {
    let chunk = typeof data === 'string' ? Buffer.from(data) : data;
    for (let newline = chunk.indexOf(10); ; newline = chunk.indexOf(10)) {
      const piece = newline === -1 ? chunk : chunk.subarray(0, newline + 1);
      if (!skipping) {
        if (pendingBytes + piece.length > limits.maxLineBytes + 1) {
          skip(Buffer.concat([...pending, piece.subarray(0, 256)]));
          skipping = true;
          pending = [];
          pendingBytes = 0;
        } else {
          pending.push(piece);
          pendingBytes += piece.length;
        }
      }
      if (newline === -1) break;
      if (!skipping) {
        const line = Buffer.concat(pending);
        lines.push(line);
        waiting += line.length;
      }
      skipping = false;
      pending = [];
      pendingBytes = 0;
      chunk = chunk.subarray(newline + 1);
    }
    // Reading goes on (so that the end of input is seen) until too much waits.
    if (waiting > limits.maxWaitingBytes) process.stdin.pause();
    if (lines.length) void deliver();
  });
  const end = () => void shutdown();
  process.stdin.on('end', end);
  process.stdin.on('close', end);
  process.stdin.on('error', end);
  // A client that closes our stdout makes the next write fail (EPIPE): the end of the session, not a crash.
  process.stdout.on('error', shutdown);
  process.on('SIGINT', shutdown);
  process.on('SIGTERM', shutdown);
}

/** The JSON-RPC id of a message, when it stands at the top level before anything nested. */
function leadingId(prefix: string): string | number | undefined {
  const head = /^\s*\{[^{[]*?"id"\s*:\s*("(?:[^"\\]|\\.){0,100}"|-?\d{1,15})\s*[,}]/.exec(prefix);
  if (!head?.[1]) return undefined;
  return JSON.parse(head[1]) as string | number;
}
