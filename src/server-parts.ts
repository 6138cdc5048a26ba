// The server's fixed parts: cache hints, the SDK's validator, the demo and history marks on an answer.
import type { CacheHint, jsonSchemaValidator, ServerOptions } from '@modelcontextprotocol/server';
import type { Rendered } from './format/result.js';

export const DEMO_NOTE = 'SIMULATED DATA (demo mode): not the real service.';
const DEMO_MARK = '[simulated] ';
export const DEMO_COST = Math.max(DEMO_NOTE.length + 1, DEMO_MARK.length);

// For 2026-07-28 clients: the lists, the reference and server/discover do not change while the process runs.
// What depends on whether the client declares MCP Apps goes to its own cache only.
const STATIC: CacheHint = { ttlMs: 3_600_000, cacheScope: 'public' };
const PER_CLIENT: CacheHint = { ttlMs: 3_600_000, cacheScope: 'private' };
const CACHE_HINTS: NonNullable<ServerOptions['cacheHints']> = {
  'server/discover': STATIC,
  'tools/list': PER_CLIENT,
  'prompts/list': STATIC,
  'resources/list': PER_CLIENT,
  'resources/templates/list': STATIC,
  'resources/read': PER_CLIENT,
};

/** The SDK validates JSON Schema only for elicitation, which this server never asks for: no Ajv is built. */
const NO_ELICITATION: jsonSchemaValidator = {
  getValidator() {
    throw new Error('this server does not use elicitation');
  },
};
export const FIXED_OPTIONS = { jsonSchemaValidator: NO_ELICITATION, cacheHints: CACHE_HINTS };

export function markSimulated(r: Rendered): Rendered {
  return { ...r, summary: `${DEMO_MARK}${r.summary}`, text: `${DEMO_NOTE}\n${r.text}` };
}

/** One line after the headline (and in the summary): what the call could not do beside its answer. */
export function withLine(r: Rendered, line: string): Rendered {
  const [headline, ...rest] = r.text.split('\n');
  return { ...r, summary: `${r.summary} (${line})`, text: [headline, line, ...rest].join('\n') };
}
