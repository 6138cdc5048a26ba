// One reading of undocumented shapes (src/untrusted/): the text channel, structuredContent and the
// views' data read the same points whatever the upstream names them.
import { describe, expect, it } from 'vitest';
import { renderGenericBatch } from '../../src/format/batch.js';
import { project } from '../../src/format/result.js';
import { numericText } from '../../src/untrusted/numbers.js';
import { idOf, messageOf } from '../../src/untrusted/reader.js';
import { timeField } from '../../src/untrusted/series.js';
import { asTime } from '../../src/untrusted/times.js';
import { seriesData } from '../../src/view-data.js';

const MINT = 'Ser1es'.padEnd(44, 'x');
const START = Date.parse('2026-11-20T00:00:00.000Z');
const STEP = 7 * 60_000;
const N = 200;
// A curve with one clear minimum and one clear maximum, so that "when" is a single moment.
const viewers = Array.from(
  { length: N },
  (_, i) => 500 + Math.round(400 * Math.sin(i / 20)) + (i === 77 ? 999 : 0),
);
const caps = Array.from({ length: N }, (_, i) => 1_000_000 + i * 1_234);

/** The same series under three namings and time forms; the last also sends its points newest first. */
const NAMINGS = {
  'dataPoints / timestamp (ISO)': {
    mintId: MINT,
    dataPoints: viewers.map((v, i) => ({
      timestamp: new Date(START + i * STEP).toISOString(),
      viewers: v,
      marketCap: caps[i],
    })),
  },
  'series / time (epoch ms)': {
    tokenAddress: MINT,
    series: viewers.map((v, i) => ({ time: START + i * STEP, viewers: v, marketCap: caps[i] })),
  },
  'history / at (epoch s, nested, newest first)': {
    token: MINT,
    window: {
      history: viewers
        .map((v, i) => ({ at: (START + i * STEP) / 1000, watching: v, cap: caps[i] }))
        .reverse(),
    },
  },
  'series / parallel lists (epoch s, numbers as text)': {
    mint_id: MINT,
    period: '24h',
    series: {
      timestamps: viewers.map((_, i) => (START + i * STEP) / 1000),
      viewers: viewers.map(String),
      market_cap: caps.map((c) => c.toFixed(2)),
    },
  },
  'parallel lists in the element itself (epoch ms)': {
    mintId: MINT,
    time: viewers.map((_, i) => START + i * STEP),
    viewers,
    marketCap: caps,
  },
} as const;

const body = (element: unknown) => ({
  success: true,
  data: {
    results: [element],
    errors: [],
    summary: { total: 1, successful: 1, failed: 0, processingTime: 1 },
  },
});

interface Figures {
  first: number;
  last: number;
  min: number;
  max: number;
  minAt: number;
  maxAt: number;
}

const expected: Figures = {
  first: viewers[0] as number,
  last: viewers.at(-1) as number,
  min: Math.min(...viewers),
  max: Math.max(...viewers),
  minAt: START + viewers.indexOf(Math.min(...viewers)) * STEP,
  maxAt: START + viewers.indexOf(Math.max(...viewers)) * STEP,
};

/** The figures the view data gives for the audience field. */
function fromView(element: unknown): Figures {
  const { series } = seriesData(body(element).data, [MINT]);
  expect(series).toHaveLength(1);
  const s = series[0];
  if (!s?.primary) throw new Error('no primary field');
  const values = s.values[s.primary] as number[];
  const min = Math.min(...values);
  const max = Math.max(...values);
  return {
    first: values[0] as number,
    last: values.at(-1) as number,
    min,
    max,
    minAt: s.t[values.indexOf(min)] as number,
    maxAt: s.t[values.indexOf(max)] as number,
  };
}

/** The figures the text channel and structuredContent give for the audience field: both must agree. */
function fromText(element: unknown): Figures {
  const r = project(
    renderGenericBatch(
      { what: 'Streamer analytics', scope: 'chain_a', query: {}, series: true },
      body(element),
      [MINT],
      'concise',
    ),
    { budget: 24_000, format: 'concise' },
  );
  const line = r.text.split('\n').find((l) => /(viewers|watching)=computed over/.test(l));
  if (!line) throw new Error(`no audience line in:\n${r.text}`);
  const m =
    /computed over ([\d,]+) points: first ([\d,]+), last ([\d,]+), min ([\d,]+) at (\S+), max ([\d,]+) at (\S+),/.exec(
      line,
    );
  if (!m) throw new Error(`unexpected line: ${line}`);
  const int = (s: string | undefined) => Number(String(s).replaceAll(',', ''));
  const text: Figures = {
    first: int(m[2]),
    last: int(m[3]),
    min: int(m[4]),
    max: int(m[6]),
    minAt: Date.parse(String(m[5])),
    maxAt: Date.parse(String(m[7])),
  };
  const result = (r.structured.results as Array<Record<string, unknown>>)[0] ?? {};
  const key = Object.keys(result).find((k) => /(viewers|watching)$/.test(k));
  const json = result[key ?? ''] as Record<string, unknown>;
  expect({
    first: json.first,
    last: json.last,
    min: json.min,
    max: json.max,
    minAt: Date.parse(String(json.minAt)),
    maxAt: Date.parse(String(json.maxAt)),
  }).toEqual(text);
  expect(int(m[1])).toBe(N);
  return text;
}

describe('one reading of an undocumented series', () => {
  for (const [naming, element] of Object.entries(NAMINGS)) {
    it(`${naming}: the view and the text report the same first, last, min and max, with times`, () => {
      const view = fromView(element);
      const text = fromText(element);
      expect(view).toEqual(expected);
      expect(text).toEqual(expected);
    });
  }

  it('the view reads every numeric field and leads with the audience', () => {
    const { series } = seriesData(body(NAMINGS['history / at (epoch s, nested, newest first)']).data, [MINT]);
    expect(series[0]?.primary).toBe('watching');
    expect(Object.keys(series[0]?.values ?? {}).sort()).toEqual(['cap', 'watching']);
    expect(series[0]?.t).toHaveLength(N);
  });
});

describe('times', () => {
  it('ISO strings, epoch seconds and epoch milliseconds in 2000–2100 are times; other numbers are not', () => {
    expect(asTime('2026-11-20T12:00:00Z')).toBe(Date.parse('2026-11-20T12:00:00Z'));
    expect(asTime(1_763_640_000)).toBe(1_763_640_000_000);
    expect(asTime(1_763_640_000_000)).toBe(1_763_640_000_000);
    expect(asTime(42)).toBeUndefined();
    expect(asTime('42')).toBeUndefined();
    expect(asTime('Moon Inu')).toBeUndefined();
  });

  it('a date-time without a zone is read the same on every machine, whatever its time zone', () => {
    const saved = process.env.TZ;
    try {
      for (const tz of ['UTC', 'America/New_York', 'Asia/Tokyo']) {
        process.env.TZ = tz;
        expect(asTime('2026-11-20 12:00:00')).toBe(Date.parse('2026-11-20T12:00:00Z'));
        expect(asTime('2026-11-20T12:00')).toBe(Date.parse('2026-11-20T12:00Z'));
        expect(asTime('2026-11-20T12:00:00-05:00')).toBe(Date.parse('2026-11-20T17:00:00Z'));
      }
    } finally {
      if (saved === undefined) delete process.env.TZ;
      else process.env.TZ = saved;
    }
  });

  it('a number field in the epoch range that goes back and forth (a market cap) is not the time', () => {
    const list = [
      { cap: 2_000_000_000, n: 1 },
      { cap: 1_900_000_000, n: 2 },
      { cap: 2_100_000_000, n: 3 },
    ];
    expect(timeField(list)).toBeUndefined();
    expect(timeField(list.map((r, i) => ({ ...r, stamp: `2026-11-2${i}` })))).toBe('stamp');
  });
});

describe('error messages', () => {
  it('found under any name, at any depth, never a status, a code, a time or an id', () => {
    expect(messageOf({ success: false, error: 'Token not found' })).toBe('Token not found');
    expect(
      messageOf({
        success: false,
        problem: { status: 404, code: 'E_GONE', at: '2026-11-20T00:00:00Z', summary: 'Token not found' },
      }),
    ).toBe('Token not found');
    expect(
      messageOf({ success: false, status: 'failed', requestId: 'abcdef0123456789abcdef' }),
    ).toBeUndefined();
  });
});

describe('shapes an independent upstream sent', () => {
  const T0 = 1_746_097_200;
  it('a record keyed by epoch seconds is a series for the view, its numbers sent as text read as numbers', () => {
    const timeline = Object.fromEntries(
      [3, 1, 2].map((k) => [String(T0 + k * 360), { viewers: String(700 + k), cap: `${k}.50`, live: true }]),
    );
    const { series } = seriesData(body({ mint_id: MINT, timeline }).data, [MINT]);
    expect(series[0]?.t).toEqual([1, 2, 3].map((k) => (T0 + k * 360) * 1000));
    expect(series[0]?.values).toEqual({ viewers: [701, 702, 703], cap: [1.5, 2.5, 3.5] });
    expect(series[0]?.primary).toBe('viewers');
  });

  it('decimal text is a number only when it writes one exactly', () => {
    expect(numericText('1316.5')).toBe(1316.5);
    expect(numericText('1250000.50')).toBe(1_250_000.5);
    expect(numericText('-40')).toBe(-40);
    for (const no of ['12abc', '007', '1e5', '', ' 1', '12345678901234567890', 'NaN'])
      expect(numericText(no)).toBeUndefined();
  });

  it("an element's id is found nested, nearest first, in records not lists, and cheaply", () => {
    const asked = new Set([MINT, 'Other'.padEnd(44, 'y')]);
    expect(idOf({ token: { mint_address: MINT } }, asked)).toBe(MINT);
    expect(idOf({ a: { b: { c: { d: { mint: MINT } } } } }, asked)).toBe(MINT);
    expect(idOf({ a: { b: { c: { d: { e: { mint: MINT } } } } } }, asked)).toBeUndefined();
    expect(idOf({ related: [{ mint: MINT }] }, asked)).toBeUndefined();
    expect(idOf({ deep: { mint: 'Other'.padEnd(44, 'y') }, mint_id: MINT }, asked)).toBe(MINT);
    const wide = Object.fromEntries(Array.from({ length: 300 }, (_, i) => [`k${i}`, { x: 1 }]));
    expect(idOf({ ...wide, z: { mint: MINT } }, asked)).toBeUndefined();
  });
});
