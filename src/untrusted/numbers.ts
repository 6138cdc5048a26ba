// Reading upstream numbers (finite numbers, or decimal text that writes one exactly), and exact decimal sums
// made on integers, so that a printed total is the sum of the printed values (0.1 + 0.2 is 0.3).

/** A decimal as an integer count of 10^-scale units. */
type Decimal = { units: bigint; scale: number };

const SCIENTIFIC = /^(-?)(\d+)(?:\.(\d+))?e([+-]\d+)$/;

/** The decimal digits of a finite number, exactly as JSON writes it. */
function decimalOf(value: number): Decimal {
  const text = String(value);
  const sci = SCIENTIFIC.exec(text);
  if (sci) {
    const [, sign = '', whole = '', fraction = '', exponent = '0'] = sci;
    const digits = BigInt(`${sign}${whole}${fraction}`);
    const scale = fraction.length - Number(exponent);
    return scale >= 0 ? { units: digits, scale } : { units: digits * 10n ** BigInt(-scale), scale: 0 };
  }
  const [whole = '0', fraction = ''] = text.split('.');
  return { units: BigInt(`${whole}${fraction}`), scale: fraction.length };
}

/** The exact sum of finite numbers, as decimal text without exponent or trailing zeros ("18199.65"). */
export function decimalSum(values: readonly number[]): string {
  const parts = values.map(decimalOf);
  let scale = 0;
  for (const d of parts) if (d.scale > scale) scale = d.scale;
  let total = 0n;
  for (const d of parts) total += d.units * 10n ** BigInt(scale - d.scale);
  return decimalText(total, scale);
}

/** `units` × 10^-scale as decimal text, no trailing zeros (inlined in the sandbox's prelude too). */
export function decimalText(units: bigint, scale: number): string {
  const negative = units < 0n;
  const digits = (negative ? -units : units).toString().padStart(scale + 1, '0');
  const whole = digits.slice(0, digits.length - scale);
  const fraction = digits.slice(digits.length - scale).replace(/0+$/, '');
  return `${negative ? '-' : ''}${whole}${fraction ? `.${fraction}` : ''}`;
}

/** Half of a decimal text, exactly: the median of two middle values. */
export function decimalHalf(text: string): string {
  const [whole = '0', fraction = ''] = text.split('.');
  return decimalText(BigInt(`${whole}${fraction}`) * 5n, fraction.length + 1);
}

/** A finite number as plain decimal text, no exponent (1e-7 → "0.0000001"). */
export function plainDecimal(value: number): string {
  const text = String(value);
  return text.includes('e') ? decimalSum([value]) : text;
}

/** Decimal text as the upstream may send a number: "772", "-1316.5", "1250000.50" (no exponent, no sign +). */
const DECIMAL = /^-?(0|[1-9]\d*)(\.\d+)?$/;

/** Decimal text as the number it writes, when the number holds it exactly; else undefined. */
export function numericText(v: string): number | undefined {
  if (v.length > 40 || !DECIMAL.test(v)) return undefined;
  const n = Number(v);
  const canonical = v.includes('.') ? v.replace(/0+$/, '').replace(/\.$/, '') : v;
  return Number.isFinite(n) && String(n) === (canonical === '-0' ? '0' : canonical) ? n : undefined;
}

export function numberOf(v: unknown): number | undefined {
  if (typeof v === 'number') return Number.isFinite(v) ? v : undefined;
  return typeof v === 'string' ? numericText(v) : undefined;
}

/** A number for compact JSON: exact, as the upstream sent it, else null. */
export const exact = (value: unknown) => numberOf(value) ?? null;

/** One field's values as numbers, when every one is a number or decimal text; else (or empty) undefined. */
export function numericColumn(values: readonly unknown[]): number[] | undefined {
  if (values.length === 0) return undefined;
  const out: number[] = [];
  for (const v of values) {
    const n = numberOf(v);
    if (n === undefined) return undefined;
    out.push(n);
  }
  return out;
}

/** An integer with thousands separators (1,234,567), without toLocaleString's cost. */
export const grouped = (value: number) => groupedText(String(value));

export const groupedText = (whole: string) => whole.replace(/\B(?=(\d{3})+$)/g, ',');
