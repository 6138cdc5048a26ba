import * as z from 'zod';

/** structuredContent of the batch tools: counts, one entry per result, one per failed id. */
export const batchOutput = {
  counts: z.object({}).loose().optional(),
  results: z.array(z.object({}).loose()).optional(),
  errors: z.array(z.object({ mintId: z.string(), error: z.string() })).optional(),
  integrity: z.array(z.string()).optional(),
};
