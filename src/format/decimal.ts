// Exact decimal arithmetic for totals: a number is taken at the decimal digits JSON gave it (the shortest
// text that reads back as the same double), and sums are made on integers, so that a printed total is
// exactly the sum of the printed values (0.1 + 0.2 is 0.3, not 0.30000000000000004).

/** A decimal as an integer count of 10^-scale units. */
interface Decimal {
  units: bigint;
  scale: number;
}

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
  let scale = 0;
  const parts: Decimal[] = [];
  for (const v of values) {
    const d = decimalOf(v);
    parts.push(d);
    if (d.scale > scale) scale = d.scale;
  }
  let total = 0n;
  for (const d of parts) total += d.units * 10n ** BigInt(scale - d.scale);
  return decimalText(total, scale);
}

function decimalText(units: bigint, scale: number): string {
  const negative = units < 0n;
  const digits = (negative ? -units : units).toString().padStart(scale + 1, '0');
  const whole = digits.slice(0, digits.length - scale);
  const fraction = digits.slice(digits.length - scale).replace(/0+$/, '');
  return `${negative ? '-' : ''}${whole}${fraction ? `.${fraction}` : ''}`;
}

/** Half of a decimal text, exactly (a decimal halved always ends): the median of two middle values. */
export function decimalHalf(text: string): string {
  const [whole = '0', fraction = ''] = text.split('.');
  return decimalText(BigInt(`${whole}${fraction}`) * 5n, fraction.length + 1);
}

/** A finite number as plain decimal text, every digit JSON gave it, no exponent (1e-7 → "0.0000001"). */
export const plainDecimal = (value: number): string => decimalSum([value]);

/** Decimal text read back as a number for JSON (exact whenever it has at most 15 significant digits). */
export const decimalNumber = (text: string): number => Number(text);
