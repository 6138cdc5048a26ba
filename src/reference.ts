// What the assistant is told: the initialize instructions and the reference resource, generated from the
// tool table. Loaded before the handshake: nothing here may load the tools' zod schemas.
import { ENDPOINTS, PLATFORM_CHAIN } from './api/endpoints.js';
import { describeAllowed } from './tools/allowed.js';
import type { Tool } from './tools/tool.js';

export const REFERENCE_URI = 'streamer-analytics://reference';

const SESSIONS_MAX = ENDPOINTS.sessions.bounds.limit.max;
const BOTTING_MAX = ENDPOINTS.botting.ids.max;

/** run_analysis's example programs (the instructions and the reference show them; the tests run them). */
export const EXAMPLES = {
  topShare: `const fees = sortBy((await api.get_creator_fees({ tokenAddresses })).data, "feesInNativeCoin", "desc");
const total = sum(fees.map((f) => f.feesInNativeCoin));
const top = sum(fees.slice(0, n).map((f) => f.feesInNativeCoin));
return { total, top, share: top / total };`,
  history: `const all = [];
for (let page = 1; ; page++) {
  const { data } = await api.get_streamer_sessions({ mint, limit: ${SESSIONS_MAX}, page });
  all.push(...data);
  if (data.length < ${SESSIONS_MAX}) break;
}
const { sessionId, duration, startTime } = maxBy(all, "duration");
return { sessions: all.length, totalDuration: sum(all.map((s) => s.duration)), longest: { sessionId, duration, startTime } };`,
  bottedLive: `const [streamers, botting] = await Promise.all([api.list_streamers({ tokenAddresses: mintIds }), api.analyze_botting({ mintIds })]);
const verdict = new Map(botting.data.results.filter((r) => !r.coverage).map((r) => [r.mintId, r]));
const rows = streamers.data.filter((s) => s.isCurrentlyLive && verdict.has(s.mintId)).map((s) => ({ mintId: s.mintId, coinSymbol: s.coinSymbol, currentViewers: s.currentViewers, level: verdict.get(s.mintId).confidenceLevel, confidence: verdict.get(s.mintId).confidence }));
return sortBy(sortBy(rows, "currentViewers", "desc"), "confidence", "desc");`,
} as const;

const EXAMPLE_TITLES: Record<keyof typeof EXAMPLES, string> = {
  topShare: "The top n earners' share of a fee total (tokenAddresses: up to 500; n)",
  history: "A token's whole session history: count, total duration, longest session (mint)",
  bottedLive:
    'Live tokens by botting confidence, most suspicious first, each with its level (level names vary by upstream; only HIGH is documented) (mintIds: up to 500)',
};

export const INSTRUCTIONS = [
  'Streamer analytics: live-streaming activity on tokens, read-only.',
  `Botted viewer counts: investigate_botting (up to 500 ids; levels, liveOnly, sortBy, offset re-slice it for 5 min at no upstream cost), analyze_botting (up to ${BOTTING_MAX}).`,
  "Token ids come from the user: no tool lists tokens without them (get_analytics_overview's live metrics may name a few live ones). One token: get_streamer_core (now), get_streamer_sessions (history). Many tokens: list_streamers.",
  'Service-wide: get_analytics_overview, get_activity_heatmap. Failures: check_health.',
  'Results state the totals, ranks, peaks, means and counts a question needs: no need to compute them from rows.',
  'A question no tool answers directly (a join, filter, share, ranking, whole history, comparison): one run_analysis program, e.g.',
  ...Object.entries(EXAMPLES).map(
    ([k, code]) => `- ${EXAMPLE_TITLES[k as keyof typeof EXAMPLES]}: ${code.replace(/\n\s*/g, ' ')}`,
  ),
  `Limits, chain/platform pairs and which tool answers what: the resource ${REFERENCE_URI}.`,
].join('\n');

/** The demo's instructions: the same, and where its sample ids come from. */
export const DEMO_INSTRUCTIONS = [
  INSTRUCTIONS,
  'DEMO MODE (simulated data, not the real service). Sample ids to try every tool with: get_analytics_overview names the three most watched live tokens of the chain and platform asked in liveMetrics.topViewers (chain all, platform all: of both chains).',
].join('\n');

const QUESTIONS = [
  `Are these tokens botted? Which flagged ones are live? | investigate_botting (up to 500 ids) or analyze_botting (up to ${BOTTING_MAX})`,
  'Which HIGH ones are live now, most watched first? | investigate_botting with levels ["HIGH"], liveOnly true, sortBy viewers (again within 5 min: no upstream request)',
  'Is the most-watched chain_b token botted? | ids from the user (no tool lists tokens without them; get_analytics_overview with chain chain_b may name the most watched in its live metrics), then analyze_botting: it names platform_c tokens, which it cannot cover',
  'Peak session, mean audience of the last sessions? | get_streamer_sessions: peak, mean and median stated',
  'What is this token doing right now? | get_streamer_core',
  'How has it streamed over time? | get_streamer_sessions, get_streamers_analytics',
  'Rank or scan tokens whose ids you have | list_streamers (tokenAddresses required)',
  'Everything about a few tokens | get_streamers_complete',
  'What have the creators earned? Total, top three? | get_creator_fees: exact totals, rows ranked',
  'How busy is the whole service, and when? Busiest day? | get_analytics_overview, get_activity_heatmap (busiest day and hour cell stated)',
  'Is the service up? Why do calls fail? | check_health',
  "Top five's share of the fees; longest session ever; live and flagged; per-chain averages | run_analysis: one program joins, filters, pages and computes; the answer only comes back",
];

type Props = Record<string, Record<string, unknown> & { enum?: unknown[] }>;

export function referenceText(tools: readonly Tool[]): string {
  const lines = [
    '# Streamer analytics: reference',
    '',
    '## Chains and platforms',
    `- chain: chain_a, chain_b, or all (both). Default chain_a.`,
    `- platform: ${Object.entries(PLATFORM_CHAIN)
      .map(([p, c]) => `${p} belongs to ${c}`)
      .join('; ')}; all aggregates.`,
    '- platform omitted: chain_a → platform_a, chain_b → all (platform_b where all is not accepted), all → all.',
    '- platform given without chain selects its chain; a contradictory pair is refused before any request.',
    '',
    '## Tools, parameters and limits',
  ];
  for (const tool of tools) {
    const entry = tool.entry();
    const props = (entry.inputSchema.properties ?? {}) as Props;
    const required = new Set((entry.inputSchema.required as string[] | undefined) ?? []);
    lines.push('', `### ${entry.name}: ${entry.title}`, entry.description);
    for (const [name, prop] of Object.entries(props)) {
      const said = typeof prop.description === 'string' ? ` (${prop.description})` : '';
      lines.push(`- ${name}${required.has(name) ? ' (required)' : ''}: ${describeAllowed(prop)}${said}`);
    }
  }
  lines.push(
    '',
    '## run_analysis: example programs',
    'Each is the body of an async function; write its inputs as constants first. api.* resolve to the upstream bodies as sent; sum, mean and median are exact decimal.',
  );
  for (const [k, code] of Object.entries(EXAMPLES))
    lines.push('', `${EXAMPLE_TITLES[k as keyof typeof EXAMPLES]}:`, '```js', code, '```');
  lines.push('', '## Which tool answers which question', '', '| question | tool |', '|---|---|');
  for (const row of QUESTIONS) lines.push(`| ${row} |`);
  lines.push(
    '',
    '## Notes',
    "- Token ids (mint ids, also called token addresses; 32 to 44 characters) come from the user: every token tool needs them, and no endpoint lists tokens without them. get_analytics_overview's liveMetrics, whose contents the API does not document, may name a few live tokens.",
    '- Units of durations and streaming times are not stated by the API: report them as returned.',
    "- The botting confidence levels: HIGH is documented; the full set is not, and another upstream may name others (ELEVATED, say). Select by confidence, or by the levels a result's counts.byLevel shows; never by a list of names assumed here. The average confidence the tools state is computed over the analysed tokens (3 significant digits, on the upstream's own scale), not taken from the upstream's summary; flagged means HIGH and any level whose mean confidence is at least HIGH's (counts.flaggedLevels).",
    '- Every result has a text and a structuredContent with the same facts; errors end with a tag like [error: rate_limited · retryable · retry_after_s=12].',
    '- The server computes the figures a question needs from the full answer (totals, ranks, peaks, means, medians, live counts, busiest day): no need to add, sort or average rows. Request counts are in structuredContent `calls`.',
    "- Numbers: native-coin amounts keep every decimal the upstream sent; fiat to the cent; totals are exact decimal sums; '≈' marks a rounded computed value; 12.3M (a suffix) marks an abbreviation, exact with response_format detailed and in structuredContent.",
    '- investigate_botting keeps an investigation 5 minutes per API key: a call that changes only sortBy, levels, liveOnly, offset or response_format asks the upstream nothing and says how old its data is. A cut ranking names the offset to continue from.',
  );
  return lines.join('\n');
}
