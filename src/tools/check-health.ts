import * as z from 'zod';
import { describeObject, NOTHING_MORE, nothingMore } from '../format/generic.js';
import { result } from '../format/result.js';
import { cleanDeep } from '../format/text.js';
import { defineTool } from './tool.js';

export const checkHealth = defineTool({
  name: 'check_health',
  title: 'Service health',
  description:
    'Checks that the service is reachable, with the status it reports. Use first when other tools fail. detailed: every field.',
  input: {},
  output: { health: z.object({}).loose().optional(), detail: z.string().optional() },
  request: () => ({ method: 'GET', path: '/health' }),
  render(body, _args, ctx) {
    const described = describeObject(body, ['success'], ctx.format === 'detailed');
    const headline = 'Service reachable: GET /health answered';
    const same = ctx.format === 'detailed' && nothingMore(body, ['success']);
    const health =
      ctx.format === 'detailed' ? (cleanDeep(body) as Record<string, unknown>) : described.fields;
    return result({
      headline,
      lines: [described.parts.length > 0 && `reported: ${described.parts.join('; ')}`, same && NOTHING_MORE],
      query: {},
      data: { health, ...(same ? { detail: NOTHING_MORE } : {}) },
    });
  },
});
