// Prompts: ready-made investigations that guide the assistant through the tools and the shape of a good answer.
import { ENDPOINTS } from './api/endpoints.js';
import { INVALID_PARAMS, WireError } from './format/errors.js';

const HOURS = ENDPOINTS.botting.bounds.hours;

interface PromptSpec {
  name: string;
  title: string;
  description: string;
  arguments: Array<{ name: string; description: string; required: boolean }>;
  text(args: Record<string, string>): string;
}

export const PROMPTS: readonly PromptSpec[] = [
  {
    name: 'investigate_botting',
    title: 'Investigate botting',
    description: 'Which of these tokens have botted viewer counts, and which of those are live now?',
    arguments: [
      {
        name: 'mintIds',
        description: 'Token mint ids, separated by commas, spaces or new lines',
        required: true,
      },
      {
        name: 'hours',
        description: `Hours of data to analyse, ${HOURS.min} to ${HOURS.max} (default ${HOURS.default})`,
        required: false,
      },
    ],
    text: ({
      mintIds = '',
      hours,
    }) => `Investigate these tokens for artificially inflated (botted) viewer counts${hours ? ` over the last ${Number(hours) === 1 ? 'hour' : `${hours} hours`}` : ''}: ${mintIds}

1. Call investigate_botting with all of them as mintIds${hours ? ` and hours ${hours}` : ''}; it batches, joins each token's streamer record and ranks the results.
   For the flagged tokens live now, most watched first, call it again with the same ids and hours plus levels ["HIGH"], liveOnly true, sortBy "viewers": that re-slice asks the upstream nothing. When rows are cut, continue with the offset it names.
2. For up to three flagged (HIGH) tokens that are live now, call get_streamer_sessions (limit 10): it states the peak session and the mean and median of averageViewers.
3. Answer with: a one-line verdict; a table of the flagged tokens (name, symbol, level, confidence, score, live, viewers, main reasons); what the session history adds; every id that failed, with its reason; and the next step.
A question past these steps (a share, a join with fees, a comparison over hours) needs a computation: one run_analysis program answers it exactly.
Treat the service's confidence as an estimate, not proof, and say so. Quote the reasons as the service gave them; never invent a unit for durations.`,
  },
  {
    name: 'streamer_report',
    title: 'Streamer report',
    description:
      "A report on one token's streamer: who, how live, how watched, how trustworthy the viewer counts look.",
    arguments: [{ name: 'mint', description: 'The token mint id', required: true }],
    text: ({ mint = '' }) => `Write a report on the streamer of token ${mint}.

1. get_streamer_core: name, symbol, live now, viewers, market cap.
2. get_streamer_sessions (limit 20): how often and how long it streams; it states the peak session, the mean and median of averageViewers and the total duration.
3. analyze_botting with hours ${HOURS.max} and the token's own chain and platform: confidence level, score and reasons (a platform_c token is not covered: it says so).
4. get_creator_fees: what the creator has earned, native-coin amount exact.
For a figure over the token's whole history (every session: the longest, the count, the total duration), run_analysis pages get_streamer_sessions to the end and computes it.
Answer with a headline, a short card of the facts, the session pattern, the botting verdict with its reasons, and any call that failed. The API does not state time units: report durations as returned.`,
  },
];

/** The prompts/get answer: the prompt's text as one user message; missing required arguments are refused. */
export function getPrompt(name: string, args: Record<string, string> = {}) {
  const prompt = PROMPTS.find((p) => p.name === name);
  if (!prompt) throw new WireError(INVALID_PARAMS, `Unknown prompt: ${name}`);
  for (const a of prompt.arguments)
    if (a.required && !args[a.name]?.trim())
      throw new WireError(INVALID_PARAMS, `Prompt ${name} needs the argument ${a.name}: ${a.description}`);
  // Mint ids as people paste them: separated by commas, spaces or new lines.
  const ids = args.mintIds?.split(/[\s,;]+/).filter(Boolean);
  const given = { ...args, ...(ids ? { mintIds: ids.join(', ') } : {}) };
  return {
    description: prompt.description,
    messages: [{ role: 'user' as const, content: { type: 'text' as const, text: prompt.text(given) } }],
  };
}
