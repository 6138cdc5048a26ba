#!/usr/bin/env node
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import type { Upstream } from './api/client.js';
import { type Config, ENV, environmentHelp, loadConfig } from './config.js';
import type { SetupPlace } from './format/errors.js';
import { createLogger, type Logger } from './log.js';
import { createClient, createServer } from './server.js';
import { type History, MIN_NODE, nodeTooOld, openHistory, storeOptions } from './store/index.js';
import { serveStdio } from './transports/stdio.js';
import { NAME, VERSION } from './version.js';

const help =
  () => `${NAME} ${VERSION}: an MCP server for a streamer analytics API (live streams on tokens, viewer botting).

Usage:
  ${NAME}            serve MCP over stdio (what Claude Desktop, Claude Code, Cursor and VS Code spawn)
  ${NAME} --demo     the same, over an embedded simulator: no key, no network, simulated data
  ${NAME} --http [--host 127.0.0.1] [--port 3333] [--allowed-hosts name,...] [--allowed-origins origin,...]
                     MCP Streamable HTTP at http://HOST:PORT/mcp (stateless), /healthz, /readyz
  ${NAME} --help     this text
  ${NAME} --version  the version

Environment (an empty value counts as unset):
${environmentHelp()}
`;

async function main(): Promise<number | undefined> {
  let flags: ReturnType<typeof parse>;
  try {
    // No arguments (how a client spawns the server): node:util's parser is not loaded.
    flags = process.argv.length > 2 ? parse() : {};
  } catch (error) {
    process.stderr.write(`${(error as Error).message}\nRun ${NAME} --help for usage.\n`);
    return 2;
  }
  if (flags.help || flags.version) {
    process.stdout.write(flags.help ? help() : `${VERSION}\n`);
    return 0;
  }

  const { config, problems, httpProblems, demo: demoSetting } = loadConfig(process.env, flags);
  if (flags.http && httpProblems.length) {
    process.stderr.write(`${httpProblems.join('\n')}\n`);
    return 2;
  }
  const demo = flags.demo === true || demoSetting;
  let stopSimulator = async () => {};
  if (demo) {
    const { startSimulator } = await import('./simulator/server.js');
    const simulator = await startSimulator({ apiKey: 'demo-key' });
    config.apiKey = simulator.apiKey;
    config.baseUrl = simulator.url;
    stopSimulator = () => simulator.close();
  }
  const logger = createLogger(config.logLevel, [config.apiKey, config.httpToken]);
  for (const problem of problems) logger.warn('configuration problem', { problem });
  // A defect in one request's handling must not stop a server that others are using: logged, not fatal.
  process.on('unhandledRejection', (error) => logger.error('unhandled rejection', { error }));
  const client = createClient(config, logger);
  const wrongDatabase = problems.find((p) => p.startsWith(ENV.databaseUrl));
  const stored = {
    ...storeOptions(config),
    ...(wrongDatabase ? { offReason: wrongDatabase } : {}),
    // In full (the SQLite file's path included) for the log; callers get it without paths.
    log: (message: string, detail: Record<string, unknown>) => logger.warn(message, detail),
  };
  const history = openHistory(stored, demo);
  if ((history.location.kind === 'sqlite' || history.location.kind === 'memory') && nodeTooOld())
    logger.warn(
      `history needs Node ${MIN_NODE} or later for SQLite (this is Node ${process.versions.node}): the history tools will say it is unavailable; every other tool works`,
    );
  const cleanup = async () => {
    await client?.close();
    await history.close();
    await stopSimulator();
  };
  const shared = { config, logger, problems, demo, history };
  if (flags.http) return serveOverHttp(shared, client, cleanup, stored.watchIntervalMs);
  const setupPlace = setupPlaceOf();
  serveStdio(() => createServer({ ...shared, setupPlace, ...(client ? { client } : {}) }), cleanup);
  return undefined;
}

/** How long /readyz waits for the upstream's /health. */
const PROBE_MS = 3_000;

async function serveOverHttp(
  shared: { config: Config; logger: Logger; problems: string[]; demo: boolean; history: History },
  client: Upstream | undefined,
  cleanup: () => Promise<void>,
  intervalMs: number,
): Promise<number | undefined> {
  const { config, logger, demo, history } = shared;
  const [{ HTTP_DEFAULTS, serveHttp }, { ClientPool }] = await Promise.all([
    import('./transports/http.js'),
    import('./api/pool.js'),
  ]);
  // Without a key of its own, the server keeps one upstream client per caller key.
  const pool =
    client || !config.baseUrl
      ? undefined
      : new ClientPool(
          (apiKey) => createClient({ ...config, apiKey }, logger.redacting(apiKey)) as Upstream,
          64,
          (clients) => logger.debug('upstream client opened for a caller key', { clients }),
        );
  let readiness: { at: number; value: Promise<{ ready: boolean; detail: string }> } | undefined;
  // Without a server key, any answer below 500 shows the service is there: callers bring their own keys.
  const check = async () => {
    if (!config.baseUrl) return { ready: false, detail: `${ENV.baseUrl} is not set` };
    const timeout = AbortSignal.timeout(PROBE_MS);
    try {
      if (client) {
        await client.request({ method: 'GET', path: '/health' }, timeout);
        const detail = demo
          ? 'demo mode: the embedded simulator answered GET /health (simulated data, no API key needed)'
          : 'upstream GET /health answered, with the server key';
        return { ready: true, detail };
      }
      const { buildUrl } = await import('./api/client.js');
      const res = await fetch(buildUrl(config.baseUrl, '/health'), { signal: timeout });
      await res.body?.cancel();
      const said = `upstream GET /health answered HTTP ${res.status} without a key (callers send their own x-api-key; none was checked)`;
      return { ready: res.status < 500, detail: said };
    } catch (error) {
      if (timeout.aborted) {
        const detail = `upstream GET /health did not answer within ${PROBE_MS / 1000} s (time-out)`;
        return { ready: false, detail };
      }
      const { code, cause } = error as { code?: string; cause?: { code?: string } };
      const what =
        error instanceof Error && error.name === 'ConnectionError' ? error.message : (cause?.code ?? code);
      const { connectionProblem } = await import('./format/errors.js');
      const detail = `upstream GET /health failed: ${connectionProblem(what ?? (error as Error).message)}`;
      return { ready: false, detail };
    }
  };
  try {
    const http = await serveHttp(
      {
        ...HTTP_DEFAULTS,
        host: config.httpHost,
        port: config.httpPort,
        token: config.httpToken,
        allowedHosts: config.httpAllowedHosts,
        allowedOrigins: config.httpAllowedOrigins,
        trustProxy: config.httpTrustProxy,
        sendTimeoutMs: config.httpSendTimeoutMs,
      },
      {
        logger,
        // Readiness is checked at most every 10 s, however often a balancer asks.
        ready: () => {
          if (!readiness || Date.now() - readiness.at > 10_000)
            readiness = { at: Date.now(), value: check() };
          return readiness.value;
        },
        callerKeys: pool !== undefined,
        makeServer({ apiKey, capabilities, id, share, address, cancelled, onEnd }) {
          // A caller's key is used (and so a secret) only when the server has no key of its own.
          const own = client ? undefined : apiKey;
          const lease = own ? pool?.lease(own) : undefined;
          if (lease) onEnd(lease.release);
          const upstream = client ?? lease;
          return createServer({
            ...shared,
            logger: logger.redacting(own),
            upstreamAllowance: HTTP_DEFAULTS.maxUpstreamPerRequest,
            setupPlace: 'http',
            ...(upstream ? { client: upstream } : {}),
            ...(capabilities ? { clientCapabilities: capabilities } : {}),
            // Sandbox workers are few: an address's sessions share one turn at them.
            caller: { id, share, address: `address ${address}`, ...(own ? { apiKey: own } : {}) },
            ...(cancelled ? { cancelled } : {}),
          });
        },
      },
    );
    // Watchlists re-checked on a schedule: the server key's (the team's), once per interval across replicas.
    if (intervalMs > 0 && client && config.apiKey) {
      const { startWatchSchedule } = await import('./tools/check-watchlist.js');
      startWatchSchedule({ history, client, key: config.apiKey, intervalMs, logger });
    }
    process.stderr.write(`${NAME} ${VERSION}: MCP over Streamable HTTP at ${http.url}\n`);
    const shutdown = async () => {
      await http.close();
      await Promise.all([cleanup(), pool?.close()]);
      process.exit(0);
    };
    process.once('SIGTERM', shutdown);
    process.once('SIGINT', shutdown);
    return undefined;
  } catch (error) {
    process.stderr.write(`${NAME}: ${(error as Error).message}\n`);
    return 2;
  }
}

// Where the user makes settings: an unpacked Claude Desktop extension has manifest.json beside the server
// folder, and passes a setting left blank as its literal `${user_config.NAME}`.
function setupPlaceOf(): SetupPlace {
  const bundled = existsSync(fileURLToPath(new URL('../manifest.json', import.meta.url)));
  const placeholder = Object.values(ENV).some((name) => process.env[name]?.includes('${user_config.'));
  return bundled || placeholder ? 'extension' : 'environment';
}

function parse() {
  return parseArgs({
    options: {
      help: { type: 'boolean', short: 'h' },
      version: { type: 'boolean', short: 'v' },
      demo: { type: 'boolean' },
      http: { type: 'boolean' },
      host: { type: 'string' },
      port: { type: 'string' },
      'allowed-hosts': { type: 'string' },
      'allowed-origins': { type: 'string' },
    },
    strict: true,
    allowPositionals: false,
  }).values;
}

main().then(
  (code) => {
    if (code !== undefined) process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`${NAME} failed to start: ${(error as Error).message}\n`);
    process.exitCode = 1;
  },
);
