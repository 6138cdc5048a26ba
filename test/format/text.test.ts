import { describe, expect, it } from 'vitest';
import { dailySeries, gridLines, hourlyGrid } from '../../src/format/heatmap.js';
import {
  abbrev,
  approx,
  coin,
  decimalText,
  idColumn,
  label,
  money,
  num,
  pct,
  shortId,
  sparkline,
  table,
  utcMinute,
} from '../../src/format/text.js';
import { decimalSum, grouped } from '../../src/untrusted/numbers.js';
import { clean, literal, quote } from '../../src/untrusted/text.js';
import { utcIso } from '../../src/untrusted/times.js';

describe('clean', () => {
  it('removes controls, ANSI, invisible and direction characters, folds breaks', () => {
    expect(clean('a\nb\tc\u001b[31md\u202ee\u200bf\ufeffg')).toBe('a b cdefg');
  });
  it('trims and folds spaces, plain strings included', () => {
    expect(clean('abc ')).toBe('abc');
    expect(clean(' abc')).toBe('abc');
    expect(clean('a  b')).toBe('a b');
    expect(clean('Laser Cult')).toBe('Laser Cult');
    expect(clean('')).toBe('');
    expect(clean('abcdef', 3)).toBe('ab…');
  });
  it('replaces lone surrogates and keeps pairs', () => {
    expect(clean('x\ud800y')).toBe('x\ufffdy');
    expect(clean('🚀')).toBe('🚀');
  });
  it('caps length with an ellipsis, never splitting a pair', () => {
    expect(clean('abcdef', 4)).toBe('abc…');
    const capped = clean(`${'a'.repeat(3)}🚀🚀`, 5);
    expect(capped).not.toMatch(/[\ud800-\udbff](?![\udc00-\udfff])/);
  });
  it('literal echoes a caller value exactly, invisible characters escaped', () => {
    expect(literal(' ')).toBe('" "');
    expect(literal('a\u202eb\n')).toBe('"a\\u202eb\\n"');
    expect(literal('x'.repeat(60), 4)).toBe('"xxxx…"');
  });
  it('quote makes data read as data', () => {
    expect(quote('say "hi"\n')).toBe('"say \\"hi\\""');
  });
});

describe('numbers', () => {
  it.each([
    [0, '0'],
    [999, '999'],
    [1234, '1,234'],
    [99_999, '99,999'],
    [-4_321, '-4,321'],
    // Never rounded so that it changes meaning: an average keeps its decimal, a count stays exact.
    [99_999.6, '99,999.6'],
    [1_234.5, '1,234.5'],
    [2_693.9, '2,693.9'],
    [2_694, '2,694'],
    [123_456, '123,456'],
    [1_234_567, '1,234,567'],
    [2_500_000_000, '2,500,000,000'],
    [39_512_345.67, '39,512,345.67'],
    [0.93, '0.93'],
    // Every decimal the upstream sent: a rounded figure never reads as exact.
    [0.81234, '0.81234'],
    [867.273174, '867.273174'],
    [1e-7, '0.0000001'],
    [0.0000123, '0.0000123'],
    [12.345, '12.345'],
    [-1_500_000.5, '-1,500,000.5'],
    [Number.NaN, 'NaN'],
  ])('%d reads %s', (value, text) => {
    expect(num(value)).toBe(text);
  });
  it('money to the cent, never rounded below it', () => {
    expect(money(43_421.82)).toBe('43,421.82');
    expect(money(43_421.8)).toBe('43,421.80');
    expect(money(-0.5)).toBe('-0.50');
    expect(money(1_000)).toBe('1,000');
    expect(money(0.125)).toBe('0.125');
  });
  it('native coin keeps every decimal', () => {
    expect(coin(867.273174)).toBe('867.273174');
    expect(coin(12_345.000001)).toBe('12,345.000001');
    expect(coin(2)).toBe('2');
  });
  it('abbreviates only with a visible suffix, and only large magnitudes', () => {
    expect(abbrev(9_999.5)).toBe('9,999.5');
    expect(abbrev(12_345)).toBe('12.3k');
    expect(abbrev(845_000)).toBe('845k');
    expect(abbrev(12_345_678)).toBe('12.3M');
    expect(abbrev(1_000_000)).toBe('1M');
    expect(abbrev(-2_500_000_000)).toBe('-2.5B');
    expect(abbrev(undefined)).toBe('–');
  });
  it('a computed value rounded for reading is marked ≈; an exact one is not', () => {
    expect(approx(70 / 3)).toBe('≈23.33');
    expect(approx(6)).toBe('6');
    expect(approx(1_087.45)).toBe('1,087.45');
    expect(approx(null)).toBe('–');
  });
  it('sums exactly in decimal', () => {
    expect(decimalSum([0.1, 0.2])).toBe('0.3');
    expect(decimalSum([867.273174, 0.1, 0.2])).toBe('867.573174');
    expect(decimalSum([1e-7, 1])).toBe('1.0000001');
    expect(decimalSum([-1.5, 0.25])).toBe('-1.25');
    expect(decimalSum([])).toBe('0');
    expect(decimalText(decimalSum([18_199.64, 0.01]))).toBe('18,199.65');
  });
  it('groups any integer by thousands', () => {
    expect(grouped(1_234_567_890)).toBe('1,234,567,890');
    expect(grouped(-1_000)).toBe('-1,000');
    expect(grouped(100)).toBe('100');
  });
  it('shows a missing value as a dash and a string as cleaned text', () => {
    expect(num(undefined)).toBe('–');
    expect(num('12\n')).toBe('12');
  });
  it('percent and short ids', () => {
    expect(pct(0.345)).toBe('34.5%');
    expect(shortId('7xKXtg2CW87d97TXJSDpbD5jBkheTqA83TZRuJosgAsU')).toBe('7xKXtg…');
    expect(label('BONK')).toBe('BONK');
    expect(label('a b')).toBe('"a b"');
    expect(label('x\n|y')).toBe('"x |y"');
  });
});

describe('table and sparkline', () => {
  it('aligns columns, numbers to the right, no trailing spaces', () => {
    expect(
      table(
        [{ header: 'a' }, { header: 'n', align: 'right' }],
        [
          ['xx', '1'],
          ['y', '100'],
        ],
      ),
    ).toEqual(['a     n', 'xx    1', 'y   100']);
  });
  it('draws a sparkline, averaging long series into the width', () => {
    expect(sparkline([0, 1, 2, 3, 4, 5, 6, 7])).toBe('▁▂▃▄▅▆▇█');
    expect(
      sparkline(
        Array.from({ length: 500 }, (_, i) => i),
        10,
      ),
    ).toHaveLength(10);
    expect(sparkline([5, 5, 5])).toBe('▁▁▁');
    expect(sparkline([])).toBe('');
  });
});

describe('heatmap pieces', () => {
  it('reads "a-b" keys over the ranges present, leaving other keys out', () => {
    const grid = hourlyGrid({ '1-2': 4, '1-3': 8, '2-2': 0, weird: 3 });
    expect(grid).toMatchObject({
      a: [1, 2],
      b: [2, 3],
      max: 8,
      peak: { a: 1, b: 3, value: 8 },
      ignoredKeys: 1,
    });
    expect(gridLines(grid as NonNullable<typeof grid>)).toEqual(['b:   2', 'a=1  ▒█', 'a=2  ··']);
  });
  it('orders a daily series and finds its peak', () => {
    const s = dailySeries({ '2026-11-02': 5, '2026-11-01': 0, '2026-11-03': 9, bad: 1 });
    expect(s).toMatchObject({
      from: '2026-11-01',
      to: '2026-11-03',
      values: [0, 5, 9],
      active: 2,
      total: 14,
      peak: { date: '2026-11-03', value: 9 },
      quietest: { date: '2026-11-01', value: 0 },
    });
  });
  it('keeps the dates of a sparse series: absent dates are null, never closed up into consecutive days', () => {
    const s = dailySeries({ '2025-05-01': 14, '2025-04-30': 30, '2025-04-27': 52, '2025-04-12': 7 });
    expect(s).toMatchObject({ from: '2025-04-12', to: '2025-05-01', days: 20, dated: 4, active: 4 });
    expect(s?.values?.map((v, i) => (v === null ? null : [i, v])).filter(Boolean)).toEqual([
      [0, 7],
      [15, 52],
      [18, 30],
      [19, 14],
    ]);
    // Across a month boundary and a leap day, by the calendar.
    expect(dailySeries({ '2024-02-28': 1, '2024-03-01': 2 })?.values).toEqual([1, null, 2]);
  });
  it('the quietest of the cells returned, ties counted, whatever the key order', () => {
    const grid = hourlyGrid({ '21-6': 97, '3-1': 2, '0-7': 2, '14-3': 40 });
    expect(grid).toMatchObject({
      a: [0, 21],
      b: [1, 7],
      quietest: { a: 0, b: 7, value: 2, cells: 2 },
      returned: 4,
      cells: 22 * 7,
    });
  });
  it('a sparkline draws an unknown value as ·, not as the lowest bar', () => {
    expect(sparkline([7, null, null, 52, 30])).toBe('▁··█▅');
    expect(sparkline([null, null])).toBe('··');
  });
});

describe('times in UTC', () => {
  it('converts a stated offset, keeps Z, and never calls a time without a zone UTC', () => {
    expect(utcIso('2025-05-01T06:00:00-05:00')).toBe('2025-05-01T11:00:00Z');
    expect(utcIso('2025-04-26T14:50:00+02:00')).toBe('2025-04-26T12:50:00Z');
    expect(utcIso('2025-04-26T14:50:00.5+0200')).toBe('2025-04-26T12:50:00.500Z');
    expect(utcIso('2026-11-20T14:02:11.000Z')).toBe('2026-11-20T14:02:11.000Z');
    expect(utcIso('2025-04-26T14:50:00')).toBeUndefined();
    expect(utcIso('yesterday')).toBeUndefined();
    expect(utcMinute('2025-05-01T06:00:00-05:00')).toEqual({ text: '2025-05-01 11:00Z', utc: true });
    expect(utcMinute('2025-04-26T14:50:00')).toEqual({ text: '2025-04-26T14:50:00', utc: false });
    expect(utcMinute(null)).toEqual({ text: '–', utc: false });
  });
});

describe('exact halves', () => {
  it('the midpoint of two decimals is exact', async () => {
    const { decimalHalf } = await import('../../src/untrusted/numbers.js');
    expect(decimalHalf('901.1')).toBe('450.55');
    expect(decimalHalf('3')).toBe('1.5');
    expect(decimalHalf('-0.3')).toBe('-0.15');
  });
});

describe('idColumn', () => {
  // The blind trial's table: 30 ranked rows, HIGH ones (pointed at by the headline) mixed with MEDIUM ones.
  const ids = Array.from({ length: 30 }, (_, i) => `${String(i).padStart(2, '0')}${'x'.repeat(42)}`);
  const pointed = new Set(ids.filter((_, i) => ![10, 11, 13, 16, 17].includes(i)));

  it('names exactly the rows it shortened: never the first 10, nor the rows pointed at', () => {
    const col = idColumn(ids.length, 'ids', { ranked: true, pointed });
    const shown = ids.map((id, i) => col.show(id, i));
    const cut = shown.flatMap((s, i) => (s.endsWith('…') ? [i + 1] : []));
    expect(cut).toEqual([11, 12, 14, 17, 18]);
    expect(col.note(ids)).toBe(
      'Ids shortened to their first 6 characters in rows 11–12, 14, 17–18 (5 rows; the other 25 rows whole): the ids you passed have them whole.',
    );
    // From an offset, the row numbers are the ranks shown.
    expect(col.note(ids, 41)).toMatch(/in rows 51–52, 54, 57–58 /);
  });

  it('no note where nothing is shortened: 25 rows or fewer, shortening not forced, or every row protected', () => {
    expect(idColumn(25, 'ids', { ranked: true }).note(ids.slice(0, 25))).toBeUndefined();
    expect(idColumn(30, 'ids', { ranked: true, shorten: false }).note(ids)).toBeUndefined();
    expect(idColumn(30, 'ids', { ranked: true, pointed: new Set(ids) }).note(ids)).toBeUndefined();
    expect(idColumn(30, 'addresses', { ranked: true }).note(ids)).toMatch(
      /^Addresses shortened to their first 6 characters in rows 11–30 \(20 rows; the other 10 rows whole\)/,
    );
  });
});
