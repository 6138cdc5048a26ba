// The one reader of upstream shapes: a body becomes a tree of nodes once, each part read when first asked.
import { NAMES } from './names.js';
import { isRecord, parallelSeries, readSeries, type Series, timeKeyed, timeTuples } from './series.js';
import { anyTime, asTime } from './times.js';

export type Node = ScalarNode | RecordNode | ListNode;
export type ScalarNode = { readonly kind: 'scalar'; readonly value: string | number | boolean | null };

export function read(value: unknown): Node {
  if (Array.isArray(value)) return new ListNode(value);
  if (isRecord(value)) return new RecordNode(value);
  return { kind: 'scalar', value: value as ScalarNode['value'] };
}

/** Points read as a series (a list of records, a time-keyed record, tuples or parallel lists), read once. */
export class SeriesNode {
  readonly kind = 'series';
  #read?: Series;
  constructor(
    readonly shape: 'list' | 'keyed' | 'tuples' | 'parallel',
    readonly points: ReadonlyArray<Record<string, unknown>>,
    /** Parallel lists: the fields the points were made of. */
    readonly lists: readonly string[] = [],
  ) {}
  get series(): Series {
    this.#read ??= readSeries(this.points);
    return this.#read;
  }
}

/** Points as a series node, or false (cached, so that a record or list is read once) when none. */
const seriesOf = (shape: SeriesNode['shape'], points?: Array<Record<string, unknown>>, lists?: string[]) =>
  points ? new SeriesNode(shape, points, lists) : false;

export class RecordNode {
  readonly kind = 'record';
  #fields?: Array<readonly [string, Node]>;
  #keyed?: SeriesNode | false;
  #parallel?: SeriesNode | false;
  constructor(readonly raw: Readonly<Record<string, unknown>>) {}
  get size() {
    return Object.keys(this.raw).length;
  }
  get fields(): ReadonlyArray<readonly [string, Node]> {
    this.#fields ??= Object.entries(this.raw).flatMap(([k, v]) =>
      v === undefined ? [] : [[k, read(v)] as const],
    );
    return this.#fields;
  }
  get timeOrdered(): ReadonlyArray<readonly [string, Node]> {
    return [...this.fields].sort(([a], [b]) => (anyTime(a) ?? 0) - (anyTime(b) ?? 0));
  }
  /** A record whose keys are all times (`{"1746097200": {viewers: 772}}`), as a series. */
  get keyed(): SeriesNode | undefined {
    this.#keyed ??= seriesOf('keyed', timeKeyed(this.raw, '(values)'));
    return this.#keyed || undefined;
  }
  /** A record of parallel lists (`{timestamps: [...], viewers: [...]}`), as a series. */
  get parallel(): SeriesNode | undefined {
    const p = this.#parallel === undefined ? parallelSeries(this.raw) : undefined;
    this.#parallel ??= seriesOf('parallel', p?.points, p?.fields);
    return this.#parallel || undefined;
  }
}

export class ListNode {
  readonly kind = 'list';
  #items?: Node[];
  #tuples?: SeriesNode | false;
  #series?: SeriesNode;
  constructor(readonly raw: readonly unknown[]) {}
  get size() {
    return this.raw.length;
  }
  get items(): readonly Node[] {
    this.#items ??= this.raw.map(read);
    return this.#items;
  }
  get records(): boolean {
    return this.raw.every(isRecord);
  }
  get scalars(): boolean {
    return this.raw.every((x) => typeof x !== 'object' || x === null);
  }
  /** [time, value…] tuples, as a series. */
  get tuples(): SeriesNode | undefined {
    this.#tuples ??= seriesOf('tuples', timeTuples(this.raw));
    return this.#tuples || undefined;
  }
  get series(): SeriesNode {
    this.#series ??= new SeriesNode('list', this.raw as Array<Record<string, unknown>>);
    return this.#series;
  }
}

/** How deep, and through how many records, an element is searched for a requested id. */
const ID_DEPTH = 4;
const ID_RECORDS = 200;

/** The id a batch element is known by: a string field holding a requested id, nearest first; else a usual name. */
export function idOf(item: unknown, requested?: ReadonlySet<string>): string | undefined {
  if (!isRecord(item)) return undefined;
  if (requested?.size) {
    let level: Array<Record<string, unknown>> = [item];
    let read = 0;
    for (let depth = 0; depth <= ID_DEPTH && level.length; depth++) {
      const next: Array<Record<string, unknown>> = [];
      for (const r of level) {
        if (++read > ID_RECORDS) return fallbackId(item);
        for (const key of NAMES.id) {
          const v = r[key];
          if (typeof v === 'string' && requested.has(v)) return v;
        }
        for (const v of Object.values(r)) {
          if (typeof v === 'string' && requested.has(v)) return v;
          if (isRecord(v)) next.push(v);
        }
      }
      level = next;
    }
  }
  return fallbackId(item);
}

const fallbackId = (item: Record<string, unknown>) =>
  NAMES.id.map((k) => item[k]).find((v): v is string => typeof v === 'string');

/** An error's message: a usual message field to depth 3, else the longest string not a status, code, time or id. */
export function messageOf(value: unknown, depth = 0): string | undefined {
  if (typeof value === 'string') return value.trim() ? value : undefined;
  if (!isRecord(value) || depth > 3) return undefined;
  const nestedIn = (values: unknown[]) => {
    for (const v of values) {
      const nested = isRecord(v) ? messageOf(v, depth + 1) : undefined;
      if (nested) return nested;
    }
    return undefined;
  };
  const named = NAMES.message.map((k) => value[k]);
  const said = named.find((v): v is string => typeof v === 'string' && v.trim() !== '') ?? nestedIn(named);
  if (said) return said;
  let longest: string | undefined;
  for (const [k, v] of Object.entries(value)) {
    if (typeof v === 'string' && v.trim() && !NAMES.notMessage(k) && asTime(v) === undefined)
      if (!longest || v.length > longest.length) longest = v;
  }
  return longest ?? nestedIn(Object.values(value));
}
