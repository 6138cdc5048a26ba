import * as z from 'zod';

/** Failures grouped by reason: `{ error, count, mintIds }` (creator fees: `tokenAddresses`). */
export const failureGroups = z.array(z.object({ error: z.string(), count: z.number() }).loose()).optional();

/** Which rows of a long table show shortened ids: the sentence the text channel has (src/format/text.ts idColumn). */
export const idsShortened = z.string().optional();

/** structuredContent of the batch tools: counts, one entry per result, failures grouped by reason. */
export const batchOutput = {
  counts: z.object({}).loose().optional(),
  results: z.array(z.object({}).loose()).optional(),
  errors: failureGroups,
  integrity: z.array(z.string()).optional(),
  /** A detailed call whose answer held nothing beyond the concise result says so. */
  detail: z.string().optional(),
  /** Which figures the server computed and which the upstream sent (analytics). */
  legend: z.string().optional(),
};
