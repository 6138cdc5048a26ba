import * as z from 'zod';

export const object = z.object({}).loose().optional();
export const objects = z.array(z.object({}).loose()).optional();
export const strings = z.array(z.string()).optional();
export const text = z.string().optional();

/** Failures grouped by reason: `{ error, count, mintIds }` (creator fees: `tokenAddresses`). */
export const failureGroups = z.array(z.object({ error: z.string(), count: z.number() }).loose()).optional();

export const table = { columns: strings, rows: z.array(z.array(z.unknown())).optional(), items: objects };

export const batchOutput = {
  counts: object,
  results: objects,
  errors: failureGroups,
  integrity: strings,
  /** A detailed call whose answer held nothing beyond the concise result says so. */
  detail: text,
  /** Which figures the server computed and which the upstream sent (analytics). */
  legend: text,
};
