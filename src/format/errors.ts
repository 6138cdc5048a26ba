import { CONFIGURATION_CODES } from '../api/breaker.js';
import { ApiError, upstreamWords } from '../api/errors.js';
import { ENV } from '../config.js';
import { quote } from '../untrusted/text.js';

/** A short machine-readable last line, e.g. `[error: rate_limited · retryable · retry_after_s=12]`. */
export const errorTag = (kind: string, retryable: boolean, extra?: string) =>
  `[error: ${[kind, retryable ? 'retryable' : 'final', extra].filter(Boolean).join(' · ')}]`;

/** A failure whose message is already the tool error's text, tag included. */
export class ToolFailure extends Error {}

/** The one place where a failure becomes the text of a tool error: what failed, then what to do. */
export function describeError(error: unknown): string {
  if (error instanceof ToolFailure) return error.message;
  if (!(error instanceof ApiError)) {
    return `Internal error in the MCP server: ${quote((error as Error)?.message ?? error, 200)}. Please report it.\n${errorTag('internal', false)}`;
  }
  const { status, upstreamMessage, body, contentType, retryAfterMs, attempts, timeoutMs } = error.detail;
  const said = upstreamMessage ? `: ${quote(upstreamMessage, 200)}` : body ? `: ${body}` : '';
  const http = status ? ` (HTTP ${status})` : '';
  const tries = attempts && attempts > 1 ? ` after ${attempts} attempts` : '';
  const waitS = retryAfterMs !== undefined ? Math.ceil(retryAfterMs / 1000) : undefined;
  // The demo's simulator uses no setting: no advice points at one.
  const demo = error.detail.simulated === true;
  const fix = (advice: string) => (demo ? DEMO_FAULT : advice);
  const say = (what: string, todo: string, extra?: string, retryable = error.retryable) =>
    lines(what, todo, errorTag(error.kind === 'upstream' ? 'upstream_error' : error.kind, retryable, extra));
  switch (error.kind) {
    case 'auth':
      return say(
        `The streamer analytics API refused the API key${http}${said}.`,
        fix(`Check ${ENV.apiKey}: it must be a valid key, created in the operator's web application.`),
      );
    case 'not_found':
      return tokenNotFound(error.detail)
        ? lines(
            `Not found${http}${said}.`,
            'Check the mint id, and the chain and platform: the token may be on the other chain or platform; chain all with platform all looks on every one.',
            demo ? DEMO_IDS : `If every tool answers 404, check ${ENV.baseUrl} instead (check_health tells).`,
            errorTag('not_found', false),
          )
        : say(
            `The streamer analytics service has no ${error.detail.path ?? 'such path'}${http}${said}: the base address is probably wrong.`,
            fix(`Check ${ENV.baseUrl}: it must be the API's base address, path prefix included ${EXAMPLE}.`),
          );
    case 'rate_limited':
      return say(
        `The streamer analytics API is rate limiting requests${http}${tries}${said}.`,
        waitS !== undefined
          ? `Wait ${waitS} s before trying again.`
          : 'Wait a minute before trying again, and make fewer calls at once.',
        waitS !== undefined ? `retry_after_s=${waitS}` : undefined,
      );
    case 'upstream':
      return say(
        `The streamer analytics service failed${http}${tries}${said}.`,
        'This is usually temporary: try again shortly; check_health tells whether the service is up.',
      );
    case 'timeout':
      return say(
        `The streamer analytics service did not answer within ${timeoutMs} ms${tries}.`,
        `Try again, ask for less (a smaller limit or fewer ids), or raise ${ENV.timeoutMs}.`,
      );
    case 'network':
      // A name that does not resolve is the configuration's fault, not an outage of the service.
      if (CONFIGURATION_CODES.has(error.message) && !demo)
        return say(
          `The service's host name does not resolve (${error.message}): a configuration problem, not an outage.`,
          `Check ${ENV.baseUrl} (the host name in it), and the DNS of the machine the server runs on.`,
          'configuration',
          false,
        );
      return say(
        `Could not reach the streamer analytics service (${connectionProblem(error.message, demo)})${tries}.`,
        fix(`Check ${ENV.baseUrl} and the network connection; check_health tests the connection.`),
      );
    case 'invalid_response':
      return say(
        `The streamer analytics service answered with something other than the expected JSON${http} (${error.message}; ${body ? `got ${body}` : 'no body shown'}, Content-Type ${contentType ? quote(contentType, 80) : 'none'}).`,
        fix(`Check that ${ENV.baseUrl} points at the API itself, with its path prefix ${EXAMPLE}.`),
      );
    case 'api_error':
      return say(
        `The streamer analytics API reported a failure${http}${said || ' without a message'}.`,
        'Check the arguments against the tool description; if they are right, the service may be unable to answer this query now.',
      );
    case 'cancelled':
      return lines('The call was cancelled before the service answered.', errorTag('cancelled', false));
    case 'batch_limit':
      return say(
        `This HTTP request already made the ${error.detail.allowance} upstream requests it may make: the calls of one batch share that allowance.`,
        'Send the remaining calls in separate HTTP requests.',
      );
    case 'busy':
      return say(
        `The server is busy with this caller's earlier requests (${error.message}); other callers are served in turn, so this one waits its share.`,
        `Try again in ${waitS ?? 1} s, or make fewer calls at once.`,
        `retry_after_s=${waitS ?? 1}`,
      );
    case 'circuit_open':
      return say(
        `The streamer analytics service failed several times in a row, so calls are paused to let it recover${lastFailureText(error.detail.lastFailure, demo)}.`,
        `Try again in ${waitS ?? 30} s; check_health will tell when it answers again.`,
        `retry_after_s=${waitS ?? 30}`,
        true,
      );
  }
}

const lines = (...parts: string[]) => parts.join('\n');
const EXAMPLE = '(e.g. https://host/api/v1)';

/** Demo mode's advice where a real service's would name a setting: the demo uses none of them. */
const DEMO_FAULT =
  "Demo mode: the embedded simulator answers every call and no setting (API key, base URL) is used: this failure is the demo's own; check_health tells whether the simulator answers.";
const DEMO_IDS =
  "Demo mode: the simulator knows only its own sample tokens; get_analytics_overview's live metrics name the most watched ones.";

const HOST_NOT_FOUND = ['host not found', `check ${ENV.baseUrl}`] as const;
/** Connection failure codes in words, and where to look (none in demo mode). */
const CONNECTION = new Map<string, readonly [string, string?]>([
  ['ENOTFOUND', HOST_NOT_FOUND],
  ['EAI_NONAME', HOST_NOT_FOUND],
  ['EAI_FAIL', HOST_NOT_FOUND],
  ['EAI_AGAIN', ['host name lookup failed for now']],
  ['ECONNREFUSED', ['connection refused', `is the service running at ${ENV.baseUrl}?`]],
  ['ECONNRESET', ['connection reset by the service']],
  ['ETIMEDOUT', ['connection timed out']],
  ['UND_ERR_CONNECT_TIMEOUT', ['connection timed out']],
]);

export function connectionProblem(code: string | undefined, demo = false): string {
  const [words, advice] = CONNECTION.get(code ?? '') ?? [];
  if (!words) return code ?? 'connection failed';
  return `${words} (${code}${code === 'EAI_AGAIN' ? ', DNS' : ''})${advice && !demo ? `: ${advice}` : ''}`;
}

/** The last failure before the circuit opened. */
function lastFailureText(
  last: { kind: string; status?: number | undefined; code?: string | undefined } | undefined,
  demo: boolean,
) {
  if (!last) return '';
  const what =
    last.kind === 'network'
      ? connectionProblem(last.code, demo)
      : last.kind === 'timeout'
        ? 'no answer in time (time-out)'
        : last.status
          ? `HTTP ${last.status}`
          : last.kind;
  return ` (last failure: ${what})`;
}

/** What a server says for a path it does not serve: a bare reason phrase, or words about the route. */
const ROUTE_LEVEL =
  /^(\W*\b(404|not|found|error|page|http|the|requested|resource|was|on|this|server)\b\W*)+$|\b(route|routes|path|endpoint|url|page|cannot (get|post))\b/i;

/** Whether a 404 is the token's (a wrong base address 404s everywhere): its path names one, in words. */
function tokenNotFound(detail: ApiError['detail']): boolean {
  if (detail.path === undefined || !/^\/streamers\/[^/]+\/\w+$/.test(detail.path)) return false;
  const words = upstreamWords(detail);
  return words !== undefined && !ROUTE_LEVEL.test(words.trim());
}

/** Where the settings are made: the Claude Desktop extension's settings page, or the client's environment. */
export type SetupPlace = 'extension' | 'environment' | 'http';

const SETTING_NAMES: Record<string, string> = { [ENV.apiKey]: 'API key', [ENV.baseUrl]: 'Service base URL' };

/** The answer every tool gives until the key and base URL are set. */
export function setupGuide(missing: string[], problems: string[], place: SetupPlace = 'environment'): string {
  return lines(
    ...setupSteps(missing, place).filter((l) => l !== false),
    ...problems.map((p) => `Note: ${p}.`),
    errorTag('not_configured', false),
  );
}

function setupSteps(missing: string[], place: SetupPlace): Array<string | false> {
  if (place === 'http') {
    // A shared --http server: the caller and the operator are different people, told apart.
    const needsBase = missing.includes(ENV.baseUrl);
    return [
      `This streamer analytics server cannot call the service yet: ${needsBase ? `its operator has not set ${ENV.baseUrl}` : 'no API key came with this request'}.`,
      missing.includes(ENV.apiKey) &&
        "For you, the caller: send your API key (created in the operator's web application) as the x-api-key header, in your MCP client's headers for this server.",
      `For the operator of this server: ${needsBase ? `set ${ENV.baseUrl} (the service base address, path prefix included) in the server's environment, and restart it` : `or set ${ENV.apiKey} in the server's environment, to serve every caller with one key`}.`,
    ];
  }
  if (place === 'extension') {
    const names = missing.map((m) => SETTING_NAMES[m] ?? m);
    return [
      `The Streamer Analytics extension is not configured yet: ${names.join(' and ')} ${names.length > 1 ? 'are' : 'is'} empty.`,
      'Open Claude Desktop → Settings → Extensions → Streamer Analytics → Configure, and fill in:',
      "- API key: your API key, created in the operator's web application.",
      "- Service base URL: the API's base address, path prefix included (e.g. https://host/api/v1).",
      'Save; the extension restarts with them.',
      'To try it without a key first, turn on "Demo mode (simulated data)" there.',
    ];
  }
  return [
    `The streamer analytics server is not configured yet: ${missing.join(' and ')} ${missing.length > 1 ? 'are' : 'is'} not set.`,
    `- ${ENV.apiKey}: your API key, created in the operator's web application; sent as the x-api-key header.`,
    `- ${ENV.baseUrl}: the service base address, path prefix included (e.g. https://host/api/v1).`,
    'Set them in the MCP client configuration (the "env" of this server), then restart the server.',
    'Try it without a key: run the server with --demo (simulated data).',
  ];
}

/** A JSON-RPC error to throw from a request handler: the SDK's McpError writes its code into the message. */
export class WireError extends Error {
  override readonly name = 'WireError';
  constructor(
    readonly code: number,
    message: string,
    /** The unknown resource's `uri`, as SEP-2164 asks. */
    readonly data?: unknown,
  ) {
    super(message);
  }
}

/** JSON-RPC's invalid parameters (an unknown tool, prompt or resource). */
export const INVALID_PARAMS = -32602;
