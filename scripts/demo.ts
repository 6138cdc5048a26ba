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
      invalid:
        'hours must be 1–168; the tool error names the parameter and its range, nothing is sent upstream',
    },
  ];
}

/** Every argument, lists of ids shortened to their count and a program to its length, so nothing is cut from the header. */
export function describeArgs(args: Record<string, unknown>): string {
  const parts = Object.entries(args).map(([name, value]) =>
    Array.isArray(value) && value.length > 1
      ? `${name}: [${value.length} ids]`
      : typeof value === 'string' && value.length > 120
        ? `${name}: [a ${value.length}-character program]`
        : `${name}: ${JSON.stringify(value)}`,
  );
  return `{${parts.join(', ')}}`;
}

async function main(): Promise<void> {
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
    `Connected over protocol ${client.getNegotiatedProtocolVersion()}: ${tools.length} tools (${tools.map((t) => t.name).join(', ')})`,
  );
  console.log(
    `Calling each tool once (${calls.filter((c) => !c.invalid).length} calls), then ${calls.filter((c) => c.invalid).length} deliberately invalid call.\n`,
  );
  for (const { tool, args, invalid } of calls) {
    const result = await client.callTool({ name: tool, arguments: args });
    const text = (result.content as Array<{ type: string; text?: string }>)
      .map((c) => c.text ?? '')
      .join('\n');
    const label = invalid ? `  (deliberately invalid: ${invalid})` : result.isError ? '  (tool error)' : '';
    console.log(`━━ ${tool} ${describeArgs(args)}${label}\n${text}\n`);
  }
  await client.close();
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await main();
