// `npm run demo`: the SDK's real Client spawns the built server in demo mode over stdio, calls every tool
// once, then analyze_botting once more with a deliberately invalid argument, and prints what an assistant
// would see. The bundle test (test/e2e/bundle.test.ts) makes the same calls against the unpacked bundle.
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { EXAMPLES } from '../src/reference.js';
import { createDataset } from '../src/simulator/data.js';

export interface DemoCall {
  tool: string;
  args: Record<string, unknown>;
  /** Set on the call that is invalid on purpose: why, shown in its header. */
  invalid?: string;
}

/** The demo's calls, over the simulator's deterministic data (the same ids --demo serves). */
export function demoCalls(): DemoCall[] {
  const { tokens } = createDataset();
  const onA = tokens.filter((t) => t.chain === 'chain_a').map((t) => t.mintId);
  // A watch list like an analyst's: a few tokens the simulator botted, mixed with ordinary ones.
  const botted = tokens
    .filter((t) => t.chain === 'chain_a' && t.botting?.confidenceLevel === 'HIGH')
    .map((t) => t.mintId);
  const watch = [...botted.slice(0, 4), ...onA.filter((id) => !botted.includes(id)).slice(0, 4)];
  const unknown = 'UnknownMint1111111111111111111111111111111';
  return [
    { tool: 'check_health', args: {} },
    { tool: 'list_streamers', args: { tokenAddresses: watch, limit: 6 } },
    { tool: 'get_streamer_core', args: { mint: botted[0] } },
    { tool: 'get_streamer_sessions', args: { mint: botted[0], limit: 5 } },
    { tool: 'analyze_botting', args: { mintIds: [...watch, unknown], hours: 24 } },
    { tool: 'get_streamers_analytics', args: { mintIds: botted.slice(0, 2), period: '1d', points: 48 } },
    { tool: 'get_streamers_complete', args: { mintIds: onA.slice(0, 1) } },
    { tool: 'get_creator_fees', args: { tokenAddresses: [...onA.slice(0, 4), unknown] } },
    { tool: 'get_analytics_overview', args: {} },
    { tool: 'get_activity_heatmap', args: {} },
    // More ids than one botting request takes (50): the server batches, joins and ranks.
    {
      tool: 'investigate_botting',
      args: { mintIds: [...onA.slice(0, 135), unknown, unknown.replace('1', '2')], includeCreatorFees: true },
    },
    // History: the investigation above was kept; a watchlist of the same tokens, checked, and what was kept.
    {
      tool: 'watchlist',
      args: { action: 'save', name: 'botted', mintIds: watch, note: 'the demo watch list' },
    },
    { tool: 'check_watchlist', args: { name: 'botted' } },
    { tool: 'get_token_history', args: { mintIds: botted.slice(0, 2), days: 30 } },
    // A question no tool answers directly: live tokens flagged HIGH or MEDIUM, most watched first, as one
    // program over 120 ids (streamer records: 2 requests; botting: 3).
    {
      tool: 'run_analysis',
      args: {
        code: `const mintIds = ${JSON.stringify(onA.slice(0, 120))};\n${EXAMPLES.bottedLive}`,
      },
    },
    {
      tool: 'analyze_botting',
      args: { mintIds: onA.slice(0, 2), hours: 500 },
      invalid: 'hours must be 1–168',
    },
  ];
}

/** Every argument, lists of ids shortened to their count and a program to its length, so nothing is cut from the header. */
export function describeArgs(args: Record<string, unknown>): string {
  const parts = Object.entries(args).map(([name, value]) =>
    Array.isArray(value) && value.length > 1
      ? `${name}: [${value.length} ids]`
      : typeof value === 'string' && value.length > 120
        ? `${name}: (the program below)`
        : `${name}: ${JSON.stringify(value)}`,
  );
  return `{${parts.join(', ')}}`;
}

/** The marker every demo result opens with: said once at the top, not repeated per call. */
const MARKER = 'SIMULATED DATA (demo mode): not the real service.';
/** Lines of each answer shown, past its headline; the investigation shows its first ranked rows instead. */
const LINES_SHOWN = 3;
const ROWS_SHOWN = 20;

/**
 * What the demo prints of one answer: its first lines (for the investigation, up to its first 20 ranked
 * rows), and a line saying how many were left out. The assistant always gets the whole answer.
 */
export function brief(tool: string, text: string): string {
  const lines = text.split('\n').filter((line, i) => !(i === 0 && line === MARKER));
  let keep = LINES_SHOWN + 1;
  if (tool === 'investigate_botting') {
    const header = lines.findIndex((line) => /^\s*#\s+level\b/.test(line));
    if (header >= 0) keep = header + 1 + ROWS_SHOWN;
  }
  if (lines.length <= keep + 1) return lines.join('\n');
  const rest = lines.length - keep;
  const what =
    tool === 'investigate_botting'
      ? `the other ranked rows, failures and next steps (${rest} lines)`
      : `${rest} more lines`;
  return [...lines.slice(0, keep), `  … ${what} not shown here: npm run demo -- --full prints them.`].join(
    '\n',
  );
}

/** The program as an assistant would read it: the id list it starts with shown as its count. */
export function programText(code: string): string {
  return code.replace(/^const mintIds = \[[^\]]*\];/, (list) => {
    const n = (list.match(/"/g) ?? []).length / 2;
    return `const mintIds = [/* ${n} ids */];`;
  });
}

async function main(full: boolean): Promise<void> {
  const entry = fileURLToPath(new URL('../server/index.js', import.meta.url));
  // 'auto': the client asks for the 2026-07-28 protocol first (server/discover) and would fall back to 2025.
  const client = new Client(
    { name: 'streamer-analytics-demo', version: '1.0.0' },
    { versionNegotiation: { mode: 'auto' } },
  );
  await client.connect(
    new StdioClientTransport({ command: process.execPath, args: [entry, '--demo'], stderr: 'inherit' }),
  );
  const { tools } = await client.listTools();
  const calls = demoCalls();
  console.log(
    `Connected over protocol ${client.getNegotiatedProtocolVersion()}: ${tools.length} tools. Each is called once, then one call is invalid on purpose.`,
  );
  console.log(
    `Every answer starts "${MARKER}"; that line is left out below${full ? '' : ', and so is all but the start of each answer'}.\n`,
  );
  for (const { tool, args, invalid } of calls) {
    const result = await client.callTool({ name: tool, arguments: args });
    const text = (result.content as Array<{ type: string; text?: string }>)
      .map((c) => c.text ?? '')
      .join('\n');
    const label = invalid ? `  (invalid on purpose: ${invalid})` : result.isError ? '  (tool error)' : '';
    const program = typeof args.code === 'string' ? `${programText(args.code)}\n→\n` : '';
    const shown = full
      ? text
          .split('\n')
          .filter((l) => l !== MARKER)
          .join('\n')
      : brief(tool, text);
    console.log(`━━ ${tool} ${describeArgs(args)}${label}\n${program}${shown}\n`);
  }
  await client.close();
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await main(process.argv.includes('--full'));
