#!/usr/bin/env node
import { parseArgs } from 'node:util';
import { ENV, loadConfig } from './config.js';
import { createLogger } from './log.js';
import { createClient, createServer } from './server.js';
import { serveStdio } from './transports/stdio.js';
import { NAME, VERSION } from './version.js';

const HELP = `${NAME} ${VERSION}: an MCP server for a streamer analytics API (live streams on tokens, viewer botting).

Usage:
  ${NAME}            serve MCP over stdio (what Claude Desktop, Claude Code, Cursor and VS Code spawn)
  ${NAME} --demo     the same, over an embedded simulator: no key, no network, simulated data
  ${NAME} --help     this text
  ${NAME} --version  the version

Environment:
  ${ENV.apiKey}          API key, sent as x-api-key (required for real data)
  ${ENV.baseUrl}         service base address, path prefix allowed (required for real data)
  ${ENV.timeoutMs}       per upstream request (default 15000)
  ${ENV.maxRetries}      retries on 429, 5xx, network errors, timeouts (default 2)
  ${ENV.maxConcurrency}  upstream requests in flight at once (default 4)
  ${ENV.logLevel}        stderr log level: error, warn, info, debug (default warn)
`;

async function main(): Promise<number | undefined> {
  let flags: ReturnType<typeof parse>;
  try {
    flags = parse();
  } catch (error) {
    process.stderr.write(`${(error as Error).message}\nRun ${NAME} --help for usage.\n`);
    return 2;
  }
  if (flags.help) {
    process.stdout.write(HELP);
    return 0;
  }
  if (flags.version) {
    process.stdout.write(`${VERSION}\n`);
    return 0;
  }
  if (flags.http) {
    process.stderr.write(
      'The Streamable HTTP transport (--http) is not available in this version yet; use stdio.\n',
    );
    return 2;
  }

  const { config, problems } = loadConfig();
  let stopSimulator = async () => {};
  if (flags.demo) {
    const { startSimulator } = await import('./simulator/server.js');
    const simulator = await startSimulator({ apiKey: 'demo-key' });
    config.apiKey = simulator.apiKey;
    config.baseUrl = simulator.url;
    stopSimulator = () => simulator.close();
  }
  const logger = createLogger(config.logLevel, [config.apiKey, config.httpToken]);
  for (const problem of problems) logger.warn('configuration problem', { problem });
  const client = createClient(config, logger);
  const server = createServer({
    config,
    logger,
    problems,
    demo: flags.demo === true,
    ...(client ? { client } : {}),
  });
  await serveStdio(server, async () => {
    await client?.close();
    await stopSimulator();
  });
  return undefined;
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
