// What the HTTP transport is configured with, its defaults, and what it hands the server it makes.
import type { ClientCapabilities, Server } from '@modelcontextprotocol/server';
import { loadConfig } from '../../config.js';
import type { Logger } from '../../log.js';
import type { Who } from './identity.js';

// Host, port and send timeout are the configuration's defaults (src/config.ts), not restated here.
const { config } = loadConfig({});

export const HTTP_DEFAULTS = {
  host: config.httpHost,
  port: config.httpPort,
  sendTimeoutMs: config.httpSendTimeoutMs,
  /** One request body; past it, 413. A caller holds at most two bodies' worth at once, all callers 16. */
  maxBodyBytes: 1024 * 1024,
  /** A body that sends nothing for this long is answered 408 and its connection closed. */
  bodyIdleMs: 10_000,
  /** The whole answer to one HTTP request, a batch's included; past it, an error instead. */
  maxAnswerBytes: 8 * 1024 * 1024,
  /** Answer bytes not yet taken by their clients: in all (past it, 503), and per caller (past it, 429). */
  maxUnsentBytes: 64 * 1024 * 1024,
  maxUnsentPerCaller: 16 * 1024 * 1024,
  maxConcurrent: 64,
  requestTimeoutMs: 120_000,
  /** How long calls in flight may finish after SIGTERM or SIGINT. */
  shutdownGraceMs: 10_000,
  /** Upstream requests one HTTP request may cause, all the calls of a batch together. */
  maxUpstreamPerRequest: 100,
  /** Requests waiting for a place in all, and for how long at most; beyond either, 503. */
  maxWaiting: 256,
  maxWaitMs: 30_000,
};

export type HttpOptions = typeof HTTP_DEFAULTS & {
  /** Bearer token required on /mcp; without one, only loopback binding is allowed. */
  token: string | undefined;
  /** Host names accepted in Host; empty: the loopback names when bound to loopback, else any. */
  allowedHosts: string[];
  /** Origins accepted when present, compared by host name; empty: the loopback names. */
  allowedOrigins: string[];
  trustProxy?: string[];
};

export interface Caller extends Pick<Who, 'apiKey' | 'id' | 'share' | 'address'> {
  /** What a 2025 client declared at initialize, from its verified session id. */
  capabilities?: ClientCapabilities;
  /** The cancellation of one of its requests by JSON-RPC id, when one is cancelled alone (a batch's). */
  cancelled?: (id: unknown) => AbortSignal | undefined;
  /** Runs `end` when the HTTP request is over (answered, or its connection gone). */
  onEnd(end: () => void): void;
}

export interface HttpDeps {
  makeServer(caller: Caller): Server;
  /** Whether a caller's x-api-key is sent upstream (the server has no key of its own): only then a secret. */
  callerKeys?: boolean;
  /** Whether the upstream answers (cached by the caller). */
  ready(): Promise<{ ready: boolean; detail: string }>;
  logger: Logger;
}
