// `npm run demo`: the SDK's real Client spawns the built server in demo mode over stdio, calls every
// tool once, and prints what an assistant would see.
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { createDataset } from '../src/simulator/data.js';

const entry = fileURLToPath(new URL('../server/index.js', import.meta.url));
const { tokens } = createDataset();
const onA = tokens.filter((t) => t.chain === 'chain_a').map((t) => t.mintId);
// A watch list like an analyst's: a few tokens the simulator botted, mixed with ordinary ones.
const botted = tokens
  .filter((t) => t.chain === 'chain_a' && t.botting?.confidenceLevel === 'HIGH')
  .map((t) => t.mintId);
const watch = [...botted.slice(0, 4), ...onA.filter((id) => !botted.includes(id)).slice(0, 4)];
const unknown = 'UnknownMint1111111111111111111111111111111';

const calls: Array<[string, Record<string, unknown>]> = [
  ['check_health', {}],
  ['list_streamers', { tokenAddresses: watch, limit: 6 }],
  ['get_streamer_core', { mint: botted[0] }],
  ['get_streamer_sessions', { mint: botted[0], limit: 5 }],
  ['analyze_botting', { mintIds: [...watch, unknown], hours: 24 }],
  ['get_streamers_analytics', { mintIds: botted.slice(0, 2), period: '1d', points: 48 }],
  ['get_streamers_complete', { mintIds: onA.slice(0, 1) }],
  ['get_creator_fees', { tokenAddresses: [...onA.slice(0, 4), unknown] }],
  ['get_analytics_overview', {}],
  ['get_activity_heatmap', {}],
  // More ids than one botting request takes (50): the server batches, joins and ranks.
  [
    'investigate_botting',
    { mintIds: [...onA.slice(0, 135), unknown, unknown.replace('1', '2')], includeCreatorFees: true },
  ],
  ['analyze_botting', { mintIds: onA.slice(0, 2), hours: 500 }],
];

// 'auto': the client asks for the 2026-07-28 protocol first (server/discover) and would fall back to 2025.
const client = new Client(
  { name: 'streamer-analytics-demo', version: '1.0.0' },
  { versionNegotiation: { mode: 'auto' } },
);
await client.connect(
  new StdioClientTransport({ command: process.execPath, args: [entry, '--demo'], stderr: 'inherit' }),
);
const { tools } = await client.listTools();
console.log(
  `Connected over protocol ${client.getNegotiatedProtocolVersion()}: ${tools.length} tools (${tools.map((t) => t.name).join(', ')})\n`,
);
for (const [name, args] of calls) {
  const result = await client.callTool({ name, arguments: args });
  const text = (result.content as Array<{ type: string; text?: string }>).map((c) => c.text ?? '').join('\n');
  console.log(
    `━━ ${name} ${JSON.stringify(args).slice(0, 90)}${result.isError ? '  (tool error)' : ''}\n${text}\n`,
  );
}
await client.close();
