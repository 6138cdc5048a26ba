// What the HTTP transport is configured with, its defaults, and what it hands the server it makes.
import type { ClientCapabilities, Server } from '@modelcontextprotocol/server';
import type { Logger } from '../../log.js';

export interface HttpOptions {
  host: string;
  port: number;
  /** Bearer token required on /mcp; without one, only loopback binding is allowed. */
  token: string | undefined;
  /** Host names accepted in Host (a port is ignored); empty: the loopback names when bound to loopback, else any. */
  allowedHosts: string[];
  /** Origins accepted when present, compared by host name; empty: the loopback names. */
  allowedOrigins: string[];
  /**
   * Reverse proxies whose X-Forwarded-For is believed (addresses or CIDRs); a caller's address is the
   * first one, from the right, that is not one of them. Empty: the socket's address, whatever is sent.
   */
  trustProxy?: string[];
  /** One request body; past it, 413. A caller holds at most two bodies' worth at once, all callers 16. */
  maxBodyBytes: number;
  /** A body that sends nothing for this long is answered 408 and its connection closed (default 10 s). */
  bodyIdleMs?: number;
  /** The whole answer to one HTTP request, a batch's included; past it, an error instead, as produced. */
  maxAnswerBytes: number;
  /** Answer bytes not yet taken by their clients, all together; past it, new calls get 503. */
  maxUnsentBytes: number;
  /** Answer bytes not yet taken, one caller's (its share); past it, its new calls get 429. */
  maxUnsentPerCaller?: number;
  /** A client that takes nothing of its answer for this long is disconnected (default 30 s). */
  sendTimeoutMs?: number;
  maxConcurrent: number;
  /** Requests waiting for a place in all (default 256); beyond it, 503. */
  maxWaiting?: number;
  /** Longest a request waits for a place (default 30 s) before it is answered 503. */
  maxWaitMs?: number;
  /** Longest a request may take, body and answer included. */
  requestTimeoutMs: number;
  /** How long calls in flight may finish after SIGTERM or SIGINT. */
  shutdownGraceMs: number;
}

export const HTTP_DEFAULTS = {
  host: '127.0.0.1',
  port: 3333,
  maxBodyBytes: 1024 * 1024,
  maxAnswerBytes: 8 * 1024 * 1024,
  /** Answers written but not yet taken by their clients, all together; past it, new calls wait (503). */
  maxUnsentBytes: 64 * 1024 * 1024,
  /** One caller's answers not yet taken; past it, its new calls 429 and answers being written are cut. */
  maxUnsentPerCaller: 16 * 1024 * 1024,
  sendTimeoutMs: 30_000,
  maxConcurrent: 64,
  requestTimeoutMs: 120_000,
  shutdownGraceMs: 10_000,
  /** Upstream requests one HTTP request may cause, all the calls of a batch together. */
  maxUpstreamPerRequest: 100,
  /** Requests waiting for a place in all, past `maxConcurrent`; beyond it, 503. */
  maxWaiting: 256,
  maxWaitMs: 30_000,
};

/** Who a request comes from, as far as the server needs to know. */
export interface Caller {
  /** The caller's own upstream key (x-api-key), if any. */
  apiKey: string | undefined;
  /** What a 2025 client declared at initialize, from its verified session id (absent: none, or 2026). */
  capabilities?: ClientCapabilities;
  /** Its anchor, for fair shares of places and of the upstream: its verified session, else its address. */
  id: string;
  /** Its anchor and key together, opaque (a digest, never the key): what a tool keeps per caller. */
  share: string;
  /** Its address (the trusted proxy's word for it, if any): for what is scarcer than sessions, the sandbox. */
  address: string;
  /** The cancellation of one of its requests, by JSON-RPC id, when one is cancelled alone (a batch's). */
  cancelled?: (id: unknown) => AbortSignal | undefined;
  /** Runs `end` when the HTTP request is over (answered, or its connection gone). */
  onEnd(end: () => void): void;
}

export interface HttpDeps {
  /** A fresh MCP server for one request. */
  makeServer(caller: Caller): Server;
  /** Whether a caller's x-api-key is sent upstream (the server has no key of its own): only then a secret. */
  callerKeys?: boolean;
  /** Whether the upstream answers (cached by the caller). */
  ready(): Promise<{ ready: boolean; detail: string }>;
  logger: Logger;
}
