// run_analysis: its description's `api.*` lines come from the endpoint tools' schemas, so they cannot drift.
import * as z from 'zod';
import { type FailureKind, GLOBALS, type RunOutcome, runAnalysis } from '../analysis/index.js';
import { DEFAULTS, ENV } from '../config.js';
import { errorTag, ToolFailure } from '../format/errors.js';
import { plural } from '../format/text.js';
import { grouped } from '../untrusted/numbers.js';
import { clean } from '../untrusted/text.js';
import type { ApiUsage, LocalRead } from './analysis-api.js';
import { strings } from './batch-output.js';
import { API_MAX_IDS, type CallContext, defineTool, type Tool } from './tool.js';

const CODE_MAX = 20_000;
/** Memory one run may use (the engine's default, stated for the messages). */
const MEMORY_MIB = 64;
const DEFAULT_LIMITS = { timeoutMs: DEFAULTS.analysisTimeoutMs, maxRequests: DEFAULTS.analysisMaxRequests };

const STREAMER =
  'Streamer={mintId,coinName,coinSymbol,currentViewers,tokenMarketCap,tokenPrice,isCurrentlyLive,totalStreamingTime,chain,platform}';
/** What each `api` function resolves to: the upstream's body in the document's names. */
const API_RETURNS: Record<string, string> = {
  list_streamers: '{data:[Streamer],pagination:{page,limit,total,totalPages,hasNext,hasPrev}}',
  get_streamer_core: '{data:Streamer}',
  get_streamer_sessions:
    '{data:[{sessionId,mintId,startTime,endTime,duration,peakViewers,averageViewers}]} no paging info: next page until fewer than limit',
  get_streamers_analytics:
    '{data:{results:[not shown],errors:[not shown],summary:{total,successful,failed}}}',
  get_streamers_complete: '{data:{results:[not shown],errors:[not shown],summary:{total,successful,failed}}}',
  analyze_botting:
    '{data:{results:[{mintId,confidence,confidenceLevel,score,reasons}],errors:[{mintId,error}],summary:{totalRequested,successful,failed,averageConfidence}}}; confidenceLevel: HIGH documented, other names and casing vary (compare case-insensitively); a platform_c token (not covered, not missing) has coverage in its item',
  get_creator_fees:
    '{data:[{tokenAddress,creatorAddress,totalFees,currency,feesInNativeCoin}],errors:[{tokenAddress,error}],summary:{totalRequested,successful,failed}}',
  get_analytics_overview:
    '{data:{globalStats:{totalStreamers,liveStreamers,totalViewers,avgSessionDuration,longestActiveSession,sessionsToday,totalStreamingTime,currentActiveTime},liveMetrics:not shown},cached,precomputed}',
  get_activity_heatmap:
    '{data:{daily:{hourlyActivity:{"a-b":n},maxActivity},monthly:{dailyActivity:{date:n},maxActivity,calendar},consistency:{consistencyData:{date:n}}}}',
  check_health: 'not shown',
};

type Prop = { type?: string; enum?: unknown[]; default?: unknown; minimum?: number; maximum?: number };

/** One parameter, compactly: `name` (required), `name?`, `name=default`, enums and ranges. */
function param(name: string, prop: Prop, required: boolean): string {
  if (prop.type === 'array') return `${name}[≤${API_MAX_IDS}]`;
  const values = Array.isArray(prop.enum) ? prop.enum.filter((v) => v !== prop.default) : [];
  const range =
    prop.minimum !== undefined && prop.maximum !== undefined ? `(${prop.minimum}-${prop.maximum})` : '';
  if (name === 'chain' || name === 'platform') return `${name}?`;
  if (prop.default !== undefined) return `${name}=${[prop.default, ...values].join('|')}${range}`;
  return `${name}${required ? '' : '?'}${values.length ? `:${values.join('|')}` : ''}${range}`;
}

/** `api.name({params}) → returns`, one line per endpoint tool, from its own input schema. */
function apiLines(tools: readonly Tool[]): string[] {
  return tools.map((tool) => {
    const schema = tool.entry().inputSchema;
    const props = (schema.properties ?? {}) as Record<string, Prop>;
    const required = new Set((schema.required as string[] | undefined) ?? []);
    const params = Object.entries(props)
      .filter(([name]) => name !== 'response_format')
      .map(([name, prop]) => param(name, prop, required.has(name)));
    return `api.${tool.name}(${params.length ? `{${params.join(',')}}` : ''}) → ${API_RETURNS[tool.name] ?? 'not shown'}`;
  });
}

function description(tools: readonly Tool[], extra?: string): string {
  return [
    'Runs your JavaScript (an async function body; `return` the answer) in a sandbox against the API, for what other tools do not answer directly: joins across endpoints, filters, shares, rankings, whole histories, comparisons. Await every api call.',
    `api.* take the tools' parameters, defaults and checks (chain default chain_a; platform follows it); id lists up to ${API_MAX_IDS} are split and merged; each resolves to the upstream JSON body as sent; failures throw. ${STREAMER}.`,
    ...apiLines(tools),
    ...(extra ? [extra] : []),
    "Helpers: sum, mean, median(values | rows, field) exact decimal; maxBy, minBy(rows, field) first on ties; sortBy(rows, field, 'asc'|'desc') stable, rows without a number last; console.log.",
    `Limits: ${DEFAULT_LIMITS.timeoutMs / 1000} s, ${MEMORY_MIB} MiB, ${DEFAULT_LIMITS.maxRequests} upstream requests per run; answer cut to the result budget. Plain JavaScript only: no TypeScript, fetch, require or process.`,
  ].join('\n');
}

export function runAnalysisTool(
  endpoints: readonly Tool[],
  /** Calls the server answers itself (history, read only): their names, description line and reader. */
  local?: {
    names: string[];
    line: string;
    reader: (ctx: CallContext) => (name: string, args: unknown) => LocalRead;
  },
): Tool {
  const api = endpoints.filter((t) => t.requests);
  const byName = new Map(api.map((t) => [t.name, t]));
  const apiNames = [...api.map((t) => t.name), ...(local?.names ?? [])];
  return defineTool({
    name: 'run_analysis',
    title: 'Run an analysis program',
    description: () => description(api, local?.line),
    input: {
      // No minimum length: a string with one is trimmed, which would shift the line numbers.
      code: z.string().max(CODE_MAX).describe('Body of an async JavaScript function; return the answer'),
    },
    output: { value: z.unknown().optional(), logs: strings, calls: z.number().optional() },
    check: ({ code }) =>
      code.trim() ? undefined : 'code is empty: write the body of a function that returns the answer',
    async run({ code }, ctx) {
      const limits = ctx.analysis ?? DEFAULT_LIMITS;
      const stop = new AbortController();
      // Loaded with the first run, as the engine is: not at start.
      const [{ apiHost }, { renderAnswer }] = await Promise.all([
        import('./analysis-api.js'),
        import('../format/answer.js'),
      ]);
      const host = apiHost(byName, ctx, limits, () => stop.abort(), local?.reader(ctx), local?.names);
      const outcome = await runAnalysis(code, host, {
        apiNames,
        timeoutMs: limits.timeoutMs,
        signal: AbortSignal.any([ctx.signal, stop.signal]),
        caller: ctx.caller?.turns ?? 'local',
      });
      if (!outcome.ok || host.usage.limitReached || host.usage.refusedLimitReached)
        throw new ToolFailure(failureText(outcome, host.usage, limits));
      // Too deep for any reader (and JSON.stringify's recursion): refused here.
      if (deeperThan(outcome.value, ANSWER_DEPTH)) {
        const message = `nested more than ${ANSWER_DEPTH} levels`;
        const tooDeep = { ...outcome, ok: false as const, kind: 'answer_too_deep' as const, message };
        throw new ToolFailure(failureText(tooDeep, host.usage, limits));
      }
      return renderAnswer({ ...outcome, calls: host.usage.calls }, ctx.budget);
    },
  });
}

const ANSWER_DEPTH = 64;

/** Whether a JSON value nests deeper than `max` levels (iterative: the value may be deeper than the stack). */
function deeperThan(value: unknown, max: number): boolean {
  const stack: Array<[unknown, number]> = [[value, 0]];
  while (stack.length) {
    const [v, depth] = stack.pop() as [unknown, number];
    if (typeof v !== 'object' || v === null) continue;
    if (depth >= max) return true;
    for (const child of Object.values(v)) stack.push([child, depth + 1]);
  }
  return false;
}

/** A failed run, as the tool error: what ended it, where, how far it got, its log. */
function failureText(
  outcome: RunOutcome,
  usage: ApiUsage,
  limits: { timeoutMs: number; maxRequests: number; limitName?: string },
): string {
  const where =
    'line' in outcome && outcome.line !== undefined
      ? ` at line ${outcome.line}${outcome.column !== undefined ? `, column ${outcome.column}` : ''}`
      : '';
  const message = outcome.ok ? '' : clean(outcome.message, 600);
  const lastLog = outcome.logs.at(-1);
  const logged =
    lastLog !== undefined
      ? `; its last log line: ${JSON.stringify(clean(lastLog, 200))}`
      : ', and logged nothing';
  const progress = `It had made ${plural(usage.calls, 'upstream request')}${logged}.`;
  let lines: string[];
  if (usage.refusedLimitReached)
    lines = [
      `The program made more than ${grouped(limits.maxRequests)} api calls that were refused (bad arguments or names; nothing sent for them), and was stopped. ${progress}`,
      'Catch one refusal and fix the arguments it names rather than retrying in a loop.',
      errorTag('analysis_refused_limit', false),
    ];
  else if (usage.limitReached || outcome.ok)
    lines = [
      `The program reached the request limit: ${grouped(limits.maxRequests)} upstream requests in one run (${limits.limitName ?? ENV.analysisMaxRequests}), and was stopped. ${progress}`,
      `Ask for fewer pages or ids, pass up to ${API_MAX_IDS} ids per call (split for you), or stop paging early.`,
      errorTag('analysis_request_limit', false),
    ];
  else {
    const tag = (kind: string) => errorTag(kind, false);
    const runtimeHint = /ReferenceError|is not defined/.test(message)
      ? `In scope: ${GLOBALS.join(', ')} (no fetch, require, process or import).`
      : /out of memory|too long/.test(message)
        ? `A run has ${MEMORY_MIB} MiB: keep only the fields you need from each body, and aggregate as you go.`
        : /stack overflow/.test(message)
          ? 'Use a loop instead of deep recursion.'
          : /cannot read propert(y|ies) .* of (undefined|null)/i.test(message)
            ? 'A field is not where the program looked: inspect the data first, e.g. return Object.keys(row).'
            : "Fix the program and run it again; catch an api call's error to go on without it.";
    const byKind: Partial<Record<FailureKind, string[]>> = {
      syntax: [
        `Syntax error${where}; the program did not run: ${message.replace(/^SyntaxError: /, '')}.`,
        ...(/plain JavaScript/.test(message)
          ? []
          : [
              'Write plain JavaScript (no TypeScript type annotations or interfaces): the body of an async function that ends with return.',
            ]),
        tag('analysis_syntax'),
      ],
      runtime: [`The program threw${where}: ${message}. ${progress}`, runtimeHint, tag('analysis_error')],
      timeout: [
        `The program ran for the time limit, ${grouped(limits.timeoutMs)} ms (${ENV.analysisTimeoutMs}), and was stopped. ${progress}`,
        'Look for a loop that does not end; fetch less (fewer pages or ids), or do the work in fewer passes.',
        tag('analysis_timeout'),
      ],
      memory: [
        `The program ran out of memory (limit ${MEMORY_MIB} MiB) and was stopped${where}. ${progress}`,
        'Keep only the fields you need from each body, and aggregate as you go.',
        tag('analysis_memory'),
      ],
      stack: [
        `The program overflowed the stack (recursion too deep)${where}: ${message}. ${progress}`,
        'Use a loop instead of deep recursion.',
        tag('analysis_stack'),
      ],
      cancelled: [`The run was cancelled. ${progress}`, tag('cancelled')],
      answer_too_large: [
        `The program's answer is too large: ${message}, past the 1 MiB limit on an answer. ${progress}`,
        'Aggregate first (sum, mean, maxBy, counts), or return fewer rows (.slice(0, 50)) and fewer fields.',
        tag('analysis_answer_too_large'),
      ],
      answer_too_deep: [
        `The program's answer is ${message} deep. ${progress}`,
        'Return flat records (a list of objects with plain values) or scalars.',
        tag('analysis_answer_too_deep'),
      ],
      busy: [
        `Every analysis worker is busy with other programs (${message}); this one did not start.`,
        'Try again in a few seconds.',
        errorTag('busy', true, 'retry_after_s=2'),
      ],
    };
    lines = byKind[outcome.kind] ?? [
      `The analysis engine failed: ${message}. ${progress}`,
      'Please report it; other tools still work.',
      tag('internal'),
    ];
  }
  return [...lines, ...logTail(outcome.logs, outcome.logsCut)].join('\n');
}

const LOG_LINES_IN_ERROR = 20;

function logTail(logs: readonly string[], engineCut: number): string[] {
  if (!logs.length) return [];
  const shown = logs.slice(-LOG_LINES_IN_ERROR).map((l) => `  ${clean(l, 300)}`);
  const earlier = logs.length - shown.length + engineCut;
  return [
    `Log (${plural(logs.length + engineCut, 'line')}${earlier ? `; the last ${shown.length} shown` : ''}):`,
    ...shown,
  ];
}
