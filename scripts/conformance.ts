// `npm run conformance` (and .ci/run): the MCP conformance suite against the built server's --http, in demo
// mode (the built-in simulator as its upstream). The suite runs on Node 22 and is fetched, pinned, into
// node_modules/.cache on first use; scripts/conformance-baseline.yml lists the scenarios that do not apply
// to this server, with the reason. The suite fails the run on any other failure, and on a listed scenario
// that passes (a stale entry).
import { execFile, spawn } from 'node:child_process';
import { existsSync, mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { nodeBinary } from './node-version.js';

const SUITE = '@modelcontextprotocol/conformance@0.1.16';
const NODE = '22.23.3';
const root = fileURLToPath(new URL(import.meta.url.includes('/dist/') ? '../..' : '..', import.meta.url));
const cache = join(root, 'node_modules/.cache/conformance');
const cli = join(cache, 'node_modules/@modelcontextprotocol/conformance/dist/index.js');

async function suite(): Promise<string> {
  if (existsSync(cli)) return cli;
  mkdirSync(cache, { recursive: true });
  // Its own folder and lock: none of its dependencies (Express 5, some of which want Node 22) is ours.
  await promisify(execFile)(
    'npm',
    ['install', '--prefix', cache, '--no-save', '--no-audit', '--no-fund', '--loglevel=error', SUITE],
    { cwd: cache },
  );
  return cli;
}

const [node22, entry] = await Promise.all([nodeBinary(NODE), suite()]);
const server = spawn(
  process.execPath,
  [join(root, 'dist/server/index.js'), '--http', '--port', '0', '--demo'],
  {
    stdio: ['ignore', 'ignore', 'pipe'],
  },
);
const url = await new Promise<string>((resolve, reject) => {
  let text = '';
  server.stderr.on('data', (chunk) => {
    text += String(chunk);
    const m = /at (http:\/\/\S+\/mcp)/.exec(text);
    if (m?.[1]) resolve(m[1]);
  });
  server.on('exit', (code) => reject(new Error(`the server exited (${code}): ${text}`)));
});
// The suite writes results/ into its working folder.
const work = join(cache, 'run');
rmSync(work, { recursive: true, force: true });
mkdirSync(work, { recursive: true });
const code = await new Promise<number>((resolve) => {
  const run = spawn(
    node22,
    [entry, 'server', '--url', url, '--expected-failures', join(root, 'scripts/conformance-baseline.yml')],
    { cwd: work, stdio: ['ignore', 'pipe', 'inherit'] },
  );
  let out = '';
  run.stdout.on('data', (chunk) => {
    out += String(chunk);
  });
  run.on('exit', (status) => {
    // The summary, not the per-scenario chatter.
    console.log(out.slice(out.lastIndexOf('=== SUMMARY ===')).trim());
    resolve(status ?? 1);
  });
});
server.kill('SIGTERM');
console.log(code === 0 ? 'conformance: passed' : `conformance: FAILED (exit ${code})`);
process.exit(code);
