// `npm run conformance` (and .ci/run): the MCP conformance suite against the built server's --http, in demo
// mode (the built-in simulator as its upstream), twice: the 2025 suite (0.1.16, the `initialize` era) and
// the 2026-07-28 requirement set (0.2.0-alpha.12 `--requirements 2026-07-28`, stateless, per-request
// `_meta`). Each suite runs on Node 22 and is fetched, pinned, into node_modules/.cache on first use.
// Each run has a baseline (scripts/conformance-baseline*.yml) naming the scenarios, or single checks
// (`scenario:check-id`), that do not apply to this server, with the reason. The run fails on any other
// failure, and on a baselined one that passes (a stale entry). The suite judges what it scores; the
// scenarios a requirement set runs without scoring (extensions, pending ones) are judged here by the same
// rules, so that a regression in one of them fails CI too.
import { execFile, spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { startHttpServer } from './http-server.js';
import { nodeBinary } from './node-version.js';

interface Run {
  label: string;
  suite: string;
  args: string[];
  baseline: string;
}

const RUNS: Run[] = [
  {
    label: '2025 (initialize)',
    suite: '@modelcontextprotocol/conformance@0.1.16',
    args: [],
    baseline: 'scripts/conformance-baseline.yml',
  },
  {
    label: 'requirements 2026-07-28',
    suite: '@modelcontextprotocol/conformance@0.2.0-alpha.12',
    args: ['--requirements', '2026-07-28'],
    baseline: 'scripts/conformance-baseline-2026-07-28.yml',
  },
];
const NODE = '22.23.3';
const root = fileURLToPath(new URL(import.meta.url.includes('/dist/') ? '../..' : '..', import.meta.url));

/** The suite's CLI, installed into a folder of its own (none of its dependencies, Express 5 among them, is ours). */
async function install(suite: string): Promise<string> {
  const cache = join(root, 'node_modules/.cache/conformance', suite.split('@').at(-1) as string);
  const cli = join(cache, 'node_modules/@modelcontextprotocol/conformance/dist/index.js');
  if (existsSync(cli)) return cli;
  mkdirSync(cache, { recursive: true });
  await promisify(execFile)(
    'npm',
    ['install', '--prefix', cache, '--no-save', '--no-audit', '--no-fund', '--loglevel=error', suite],
    { cwd: cache },
  );
  return cli;
}

/** The baseline's entries: `- scenario` or `- scenario:check-id`, comments aside. */
export function baselineEntries(text: string): string[] {
  return [...text.matchAll(/^\s*-\s*([\w/:.-]+)/gm)].map((m) => m[1] as string);
}

type Status = 'SUCCESS' | 'FAILURE' | 'WARNING' | 'SKIPPED' | 'INFO';

/**
 * The suite's baseline rules, for one scenario's checks: a failure (or warning) must be excused by the
 * scenario's entry or by its own `scenario:check-id` entry; an entry whose scenario or check passes is
 * stale; a baselined check that is absent or skipped is tolerated (the scenario stopped before it).
 */
export function judge(scenario: string, checks: Array<{ id: string; status: Status }>, entries: string[]) {
  const bad = (s: Status) => s === 'FAILURE' || s === 'WARNING';
  const failing = new Set(checks.filter((c) => bad(c.status)).map((c) => c.id));
  const problems: string[] = [];
  if (entries.includes(scenario)) {
    if (failing.size === 0)
      problems.push(`${scenario}: passes, yet the baseline lists it (remove the entry)`);
    return problems;
  }
  const excused = new Set(
    entries.filter((e) => e.startsWith(`${scenario}:`)).map((e) => e.slice(scenario.length + 1)),
  );
  for (const id of failing)
    if (!excused.has(id)) problems.push(`${scenario}:${id}: fails, and the baseline does not list it`);
  for (const id of excused)
    if (checks.some((c) => c.id === id && c.status === 'SUCCESS') && !failing.has(id))
      problems.push(`${scenario}:${id}: passes, yet the baseline lists it (remove the entry)`);
  return problems;
}

/** Every scenario's checks from the suite's output folder (`server-<scenario>-<timestamp>/checks.json`). */
function results(dir: string): Map<string, Array<{ id: string; status: Status }>> {
  const byScenario = new Map<string, Array<{ id: string; status: Status }>>();
  for (const name of readdirSync(dir)) {
    const scenario = /^server-(.+)-\d{4}-\d\d-\d\dT[\d-]+Z$/.exec(name)?.[1];
    const file = join(dir, name, 'checks.json');
    if (scenario && existsSync(file)) byScenario.set(scenario, JSON.parse(readFileSync(file, 'utf8')));
  }
  return byScenario;
}

async function runSuite(run: Run, cli: string, node22: string, url: string): Promise<boolean> {
  const work = join(root, 'node_modules/.cache/conformance/run', run.suite.split('@').at(-1) as string);
  rmSync(work, { recursive: true, force: true });
  mkdirSync(work, { recursive: true });
  const baseline = join(root, run.baseline);
  const output = join(work, 'results');
  const code = await new Promise<number>((resolve) => {
    const child = spawn(
      node22,
      [cli, 'server', '--url', url, ...run.args, '--expected-failures', baseline, '-o', output],
      { cwd: work, stdio: ['ignore', 'pipe', 'inherit'] },
    );
    let out = '';
    child.stdout.on('data', (chunk) => {
      out += String(chunk);
    });
    child.on('exit', (status) => {
      // The summary, not the per-scenario chatter.
      console.log(
        `\n── conformance, ${run.label} ──\n${out.slice(out.lastIndexOf('=== SUMMARY ===')).trim()}`,
      );
      resolve(status ?? 1);
    });
  });
  const entries = baselineEntries(readFileSync(baseline, 'utf8'));
  const ran = results(output);
  const problems = [...ran].flatMap(([scenario, checks]) => judge(scenario, checks, entries));
  if (ran.size === 0) problems.push(`no results in ${output}`);
  for (const problem of problems) console.log(`  ✗ ${problem}`);
  const passed = code === 0 && problems.length === 0;
  console.log(
    passed
      ? `conformance, ${run.label}: passed (${ran.size} scenarios)`
      : `conformance, ${run.label}: FAILED (suite exit ${code}, ${problems.length} problems found in its results)`,
  );
  return passed;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const [node22, ...clis] = await Promise.all([nodeBinary(NODE), ...RUNS.map((r) => install(r.suite))]);
  const server = await startHttpServer({ args: ['--demo'] });
  let passed = true;
  for (const [i, run] of RUNS.entries())
    passed = (await runSuite(run, clis[i] as string, node22, server.url)) && passed;
  await server.stop();
  console.log(passed ? 'conformance: passed' : 'conformance: FAILED');
  process.exit(passed ? 0 : 1);
}
