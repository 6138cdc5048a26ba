// Figures over the full upstream answer (before any budget cut), so the assistant never computes them.
import { decimalHalf, decimalSum, numberOf } from '../untrusted/numbers.js';

export function numericStats(values: readonly unknown[]) {
  const nums: number[] = [];
  for (const v of values) {
    const n = numberOf(v);
    if (n !== undefined) nums.push(n);
  }
  const { low: min, peak: max } = extremes(nums, (v) => v);
  if (min === undefined || max === undefined) return undefined;
  const sum = decimalSum(nums);
  const sorted = Float64Array.from(nums).sort();
  const mid = sorted.length >> 1;
  // Between two middle values, their exact decimal midpoint (450.5 and 450.6: 450.55, not 450.54999…).
  const median =
    sorted.length % 2
      ? (sorted[mid] as number)
      : Number(decimalHalf(decimalSum([sorted[mid - 1] as number, sorted[mid] as number])));
  return {
    count: nums.length,
    ignored: values.length - nums.length,
    min,
    max,
    sum,
    mean: Number(sum) / nums.length,
    median,
  };
}

/** The first highest and the first lowest of `items` by `value`, each with how many items share its value. */
export function extremes<T>(items: readonly T[], value: (item: T) => number) {
  const out: { peak?: T; peakTies: number; low?: T; lowTies: number } = { peakTies: 0, lowTies: 0 };
  let [high, low] = [0, 0];
  for (const item of items) {
    const v = value(item);
    if (out.peak === undefined || v > high) [out.peak, out.peakTies, high] = [item, 1, v];
    else if (v === high) out.peakTies++;
    if (out.low === undefined || v < low) [out.low, out.lowTies, low] = [item, 1, v];
    else if (v === low) out.lowTies++;
  }
  return out;
}

/** `items` grouped by `key`: the groups in the order their first item came, each item in its order. */
export function groupBy<T, K>(items: Iterable<T>, key: (item: T) => K): Map<K, T[]> {
  const groups = new Map<K, T[]>();
  for (const item of items) {
    const group = groups.get(key(item));
    if (group) group.push(item);
    else groups.set(key(item), [item]);
  }
  return groups;
}

/** Competition ranks (1, 2, 2, 4) of values already sorted best first; `null` values rank after the rest. */
export function ranks(sorted: readonly (number | null)[]): number[] {
  const out: number[] = [];
  for (const [i, v] of sorted.entries())
    out.push(i > 0 && v === sorted[i - 1] ? (out[i - 1] as number) : i + 1);
  return out;
}
