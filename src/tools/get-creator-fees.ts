import * as z from 'zod';
import { accountFor, asArray, asRecord, failures, noteLines } from '../format/batch.js';
import { extraLine } from '../format/generic.js';
import { fitRows } from '../format/result.js';
import { clean, cleanDeep, exact, money, num, quote, table } from '../format/text.js';
import { failureGroups } from './batch-output.js';
import { idList, SHAPES } from './shared.js';
import { defineTool } from './tool.js';

export const getCreatorFees = defineTool({
  name: 'get_creator_fees',
  title: 'Creator fees (batch)',
  description:
    "Creator fees of tokens: creator address, total fees and currency, fees in chain_a's native coin. Failed tokens listed with the reason.",
  input: { tokenAddresses: idList(100, 'Token addresses') },
  ids: 'tokenAddresses',
  output: {
    counts: z.object({}).loose().optional(),
    results: z.array(z.object({}).loose()).optional(),
    errors: failureGroups,
    integrity: z.array(z.string()).optional(),
  },
  request: ({ tokenAddresses }) => ({
    method: 'POST',
    path: '/stats/creator-fees/bulk',
    shape: SHAPES.fees,
    body: { tokenAddresses },
  }),
  render(body, args, ctx) {
    const {
      results: fees,
      errors,
      notes,
    } = accountFor(
      asArray(body.data).map(asRecord),
      (f) => clean(f.tokenAddress, 64),
      body.errors,
      args.tokenAddresses,
      asRecord(body.summary),
    );
    const failed = failures(errors, 'tokenAddresses');
    const headline = `Creator fees: ${args.tokenAddresses.length} tokens requested, ${fees.length} found, ${errors.length} failed`;
    const cut = { what: 'tokens', how: () => 'Ask for fewer tokenAddresses per call.', format: ctx.format };
    return fitRows(fees, ctx.budget, cut, (rows) => {
      const text = [
        headline,
        ...noteLines(notes),
        ...(rows.length
          ? table(
              [
                { header: 'token' },
                { header: 'creator' },
                { header: 'total fees', align: 'right' },
                { header: 'currency' },
                { header: 'native coin', align: 'right' },
              ],
              rows.map((f) => [
                clean(f.tokenAddress, 64),
                clean(f.creatorAddress, 64),
                money(f.totalFees),
                quote(f.currency, 12),
                num(f.feesInNativeCoin),
              ]),
            )
          : []),
        ...(rows.length ? ["native coin: fees in chain_a's native coin."] : []),
        ...(ctx.format === 'detailed'
          ? rows.flatMap((f) => extraLine(clean(f.tokenAddress, 64), f, SHOWN))
          : []),
        ...failed.lines,
      ].join('\n');
      const results = rows.map((f) =>
        ctx.format === 'detailed'
          ? (cleanDeep(f) as Record<string, unknown>)
          : {
              tokenAddress: clean(f.tokenAddress, 64),
              creatorAddress: clean(f.creatorAddress, 64),
              totalFees: exact(f.totalFees),
              currency: clean(f.currency, 16),
              feesInNativeCoin: exact(f.feesInNativeCoin),
            },
      );
      return {
        summary: headline,
        text,
        structured: {
          counts: { requested: args.tokenAddresses.length, found: fees.length, failed: errors.length },
          results,
          ...(errors.length ? { errors: failed.json } : {}),
          ...(notes.length ? { integrity: notes } : {}),
        },
      };
    });
  },
});

const SHOWN = ['tokenAddress', 'creatorAddress', 'totalFees', 'currency', 'feesInNativeCoin'];
