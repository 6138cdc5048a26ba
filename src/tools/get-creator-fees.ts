import { groupBy, ranks } from '../format/aggregate.js';
import { accountFor, asArray, asRecord, failures } from '../format/batch.js';
import { type Field, jsonObjects, textTable } from '../format/columns.js';
import { extraLine } from '../format/generic.js';
import type { Report } from '../format/result.js';
import { coin, decimalText, idColumn, label, money, plural } from '../format/text.js';
import { decimalSum, exact } from '../untrusted/numbers.js';
import { clean, cleanDeep } from '../untrusted/text.js';
import { failureGroups, object, objects, strings, text } from './batch-output.js';
import { col, idsOf } from './shared.js';
import { defineTool } from './tool.js';

const SHOWN = ['tokenAddress', 'creatorAddress', 'totalFees', 'currency', 'feesInNativeCoin'];

/** The totals of a fee list, exact: native coin over the tokens that have it, fees per currency. */
export function feeTotals(fees: ReadonlyArray<Record<string, unknown>>) {
  const native = fees.map((f) => f.feesInNativeCoin).filter((v): v is number => exact(v) !== null);
  return {
    nativeCoin: { total: decimalSum(native), tokens: native.length },
    byCurrency: [...byCurrency(fees)].map(([currency, list]) => ({
      currency,
      total: decimalSum(list.map((f) => exact(f.totalFees) as number)),
      tokens: list.length,
    })),
  };
}

const byCurrency = (fees: ReadonlyArray<Record<string, unknown>>) =>
  groupBy(
    fees.filter((f) => exact(f.totalFees) !== null),
    (f) => clean(f.currency, 16) || '(no currency)',
  );

/** Each record's rank by totalFees within its currency, and each currency's highest: never across currencies. */
export function fiatRanks(fees: ReadonlyArray<Record<string, unknown>>) {
  const rank = new Map<Record<string, unknown>, number>();
  const top = new Map<string, { tokenAddress: string; totalFees: number; tokens?: number }>();
  for (const [currency, list] of byCurrency(fees)) {
    const sorted = [...list].sort((x, y) => (exact(y.totalFees) as number) - (exact(x.totalFees) as number));
    const r = ranks(sorted.map((f) => exact(f.totalFees)));
    for (const [i, f] of sorted.entries()) rank.set(f, r[i] as number);
    const first = sorted[0] as Record<string, unknown>;
    const shared = r.filter((n) => n === 1).length;
    top.set(currency, {
      tokenAddress: clean(first.tokenAddress, 64),
      totalFees: exact(first.totalFees) as number,
      ...(shared > 1 ? { tokens: shared } : {}),
    });
  }
  return { rank: (f: Record<string, unknown>) => rank.get(f) ?? null, top };
}

type Row = { f: Record<string, unknown>; rank: number | null };

export const getCreatorFees = defineTool({
  name: 'get_creator_fees',
  title: 'Creator fees (batch)',
  description:
    "Creator fees of tokens, ranked by fees in chain_a's native coin and, within each currency, by total fees; exact totals (native coin, per currency). detailed: any other fields.",
  endpoint: 'fees',
  input: { tokenAddresses: idsOf('fees', 'Token addresses') },
  output: {
    counts: object,
    totals: object,
    results: objects,
    errors: failureGroups,
    integrity: strings,
    detail: text,
    idsShortened: text,
  },
  render(body, args, ctx): Report<Row> {
    const asked = args.tokenAddresses;
    const { results, errors, notes } = accountFor(
      asArray(body.data).map(asRecord),
      (f) => clean(f.tokenAddress, 64),
      body.errors,
      asked,
      asRecord(body.summary),
    );
    // Highest native-coin fees first; a record without a number ranks last (the sort is stable).
    const native = (f: Record<string, unknown>) => exact(f.feesInNativeCoin);
    const fees = [...results].sort((x, y) => (native(y) ?? -Infinity) - (native(x) ?? -Infinity));
    const rank = ranks(fees.map(native));
    const ranked = fees.map((f, i) => ({ f, rank: native(f) === null ? null : (rank[i] as number) }));
    const totals = feeTotals(results);
    const fiat = fiatRanks(results);
    const topText = (currency: string) => {
      const t = fiat.top.get(currency);
      return t
        ? `; highest ${t.tokenAddress} ${money(t.totalFees)}${t.tokens ? ` (${t.tokens} tokens share it; the first named)` : ''}`
        : '';
    };
    const detailed = ctx.format === 'detailed';
    const { nativeCoin } = totals;
    const totalParts = [
      nativeCoin.tokens > 0 &&
        `${decimalText(nativeCoin.total)} in native coin (${plural(nativeCoin.tokens, 'token')})`,
      ...totals.byCurrency.map(
        (c) =>
          `${money(Number(c.total))} ${label(c.currency, 16)} (${plural(c.tokens, 'token')}${topText(c.currency)})`,
      ),
    ].filter(Boolean);
    const ids = idColumn(ranked.length, 'addresses', { ranked: true });
    const address = (r: Row) => clean(r.f.tokenAddress, 64);
    const fields: Array<Field<Row>> = [
      col('#', (r) => (r.rank === null ? '–' : String(r.rank)), ['rank', (r) => r.rank], 'right'),
      col('token', (r, i) => ids.show(address(r), i), ['tokenAddress', address]),
      col(
        'native coin',
        (r) => coin(r.f.feesInNativeCoin),
        ['feesInNativeCoin', (r) => exact(r.f.feesInNativeCoin)],
        'right',
      ),
      col('total fees', (r) => money(r.f.totalFees), ['totalFees', (r) => exact(r.f.totalFees)], 'right'),
      col('currency', (r) => label(r.f.currency, 12), ['currency', (r) => clean(r.f.currency, 16)]),
      col('fees rank', (r) => String(fiat.rank(r.f) ?? '–'), ['feesRank', (r) => fiat.rank(r.f)], 'right'),
      col(
        'creator',
        (r) => (r.f.creatorAddress === null ? '–' : clean(r.f.creatorAddress, 64)),
        // An upstream null stays null (never an empty string).
        ['creatorAddress', (r) => (r.f.creatorAddress == null ? null : clean(r.f.creatorAddress, 64))],
      ),
    ];
    return {
      headline: `Creator fees: ${results.length} of ${plural(asked.length, 'token')} found${
        errors.length ? `, ${errors.length} failed` : ''
      }${totalParts.length ? `; total ${totalParts.join(' · ')}` : ''}`,
      query: {},
      notes,
      data: {
        counts: { requested: asked.length, found: results.length, failed: errors.length },
        totals: {
          nativeCoin: Number(totals.nativeCoin.total),
          nativeCoinTokens: totals.nativeCoin.tokens,
          byCurrency: totals.byCurrency.map((c) => ({
            ...c,
            total: Number(c.total),
            ...(fiat.top.has(c.currency) ? { highest: fiat.top.get(c.currency) } : {}),
          })),
        },
      },
      rows: {
        items: ranked,
        cut: {
          what: 'tokens (highest native-coin fees first)',
          how: () => 'Ask for fewer tokenAddresses per call.',
        },
        text: (rows) => (rows.length ? textTable(fields, rows) : []),
        shortened: (rows) => ids.note(rows.map(address)),
        after: (rows) => [
          rows.length > 0 &&
            "#: rank by native coin (fees in chain_a's native coin, every decimal as sent); fees rank: rank by total fees within the row's currency; totals are exact sums.",
          ...(detailed ? rows.flatMap((r) => extraLine(address(r), r.f, SHOWN)) : []),
        ],
        json: (rows) => ({
          results: detailed
            ? rows.map(({ f, rank }) => ({ rank, feesRank: fiat.rank(f), ...asRecord(cleanDeep(f)) }))
            : jsonObjects(fields, rows),
        }),
      },
      nothingMore: detailed && !results.some((f) => Object.keys(f).some((k) => !SHOWN.includes(k))),
      failed: failures(errors, 'tokenAddresses'),
    };
  },
});
