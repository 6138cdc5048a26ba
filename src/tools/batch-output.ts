import * as z from 'zod';

/** Failures grouped by reason: the message, how many, and the ids. */
export const failureGroups = z
  .array(z.object({ error: z.string(), count: z.number(), mintIds: z.array(z.string()) }))
  .optional();

/** structuredContent of the batch tools: counts, one entry per result, failures grouped by reason. */
export const batchOutput = {
  counts: z.object({}).loose().optional(),
  results: z.array(z.object({}).loose()).optional(),
  errors: failureGroups,
  integrity: z.array(z.string()).optional(),
};
