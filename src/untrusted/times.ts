// Reading upstream times in any form: date-time strings (zoned or not), epoch seconds or ms, numbers or digits.
import { numberOf } from './numbers.js';

/** 2000-01-01 and 2100-01-01 (ms): the range of plausible times. */
const EARLIEST = 946_684_800_000;
const LATEST = 4_102_444_800_000;
const DATE_TIME = /^\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?$/;

export function stringTime(v: string): number | undefined {
  if (v.length > 40 || !DATE_TIME.test(v.trim())) return undefined;
  // A time without a zone is read as if UTC, so that order never depends on this machine's zone.
  const s = v.trim().replace(' ', 'T');
  const t = Date.parse(/T[^Z+-]*$/.test(s) ? `${s}Z` : s);
  return Number.isFinite(t) && t >= EARLIEST && t < LATEST ? t : undefined;
}

/** Epoch ms or epoch seconds in the plausible range as ms. */
export function numberTime(v: number): number | undefined {
  if (v >= EARLIEST && v < LATEST) return v;
  if (v * 1000 >= EARLIEST && v * 1000 < LATEST) return v * 1000;
  return undefined;
}

export const asTime = (v: unknown) =>
  typeof v === 'string' ? stringTime(v) : typeof v === 'number' ? numberTime(v) : undefined;

/** A value as a time, digits ("1746097200") read as the number they write. */
export const anyTime = (v: unknown) => asTime(numberOf(v) ?? v);

/** A record key as a time: a date-time, or epoch seconds or ms in digits. */
export const keyTime = (k: string) => (/^\d{9,13}$/.test(k) ? numberTime(Number(k)) : stringTime(k));

export const isoTime = (ms: number) => new Date(ms).toISOString();

/** Whether the values never go back (or never go forward): a clock read in one direction. */
export function inOrder(values: readonly number[]): boolean {
  let [up, down] = [true, true];
  for (let i = 1; i < values.length; i++) {
    const [a, b] = [values[i - 1] as number, values[i] as number];
    if (b < a) up = false;
    if (b > a) down = false;
  }
  return (up || down) && (values.length < 2 || values[0] !== values.at(-1));
}

const ZONED = /^\d{4}-\d\d-\d\dT\d\d:\d\d(?::\d\d(\.\d+)?)?(?:Z|[+-]\d\d:?\d\d)$/i;

/** A zoned date-time as UTC ISO text (`Z` kept, an offset converted); undefined for anything else. */
export function utcIso(value: unknown): string | undefined {
  if (typeof value !== 'string' || !ZONED.test(value)) return undefined;
  if (/z$/i.test(value)) return value.toUpperCase();
  const at = Date.parse(value);
  if (Number.isNaN(at)) return undefined;
  const iso = new Date(at).toISOString();
  return ZONED.exec(value)?.[1] ? iso : iso.replace('.000Z', 'Z');
}
