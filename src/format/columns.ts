// A column declared once (header, text cell, JSON field): a table's text and JSON rows project one list.
import { exact } from '../untrusted/numbers.js';
import { clean, cleanDeep } from '../untrusted/text.js';
import { type Column, table } from './text.js';

export interface Field<R> extends Column {
  key: string;
  /** The text cell of a row (`index`: the row's place in the table shown). */
  text: (row: R, index: number) => string;
  /** Its JSON value; by default the row's field of this name (strings cleaned, numbers exact). */
  json?: (row: R) => unknown;
  textless?: boolean;
}

/** A JSON cell as an upstream field reads: strings cleaned, booleans kept, numbers exact (else null). */
export const jsonCell = (v: unknown) =>
  typeof v === 'string' ? clean(v, 80) : typeof v === 'boolean' ? v : exact(v);

const jsonOf = <R>(f: Field<R>, row: R) =>
  f.json ? f.json(row) : jsonCell((row as Record<string, unknown>)[f.key]);

export function textTable<R>(fields: readonly Field<R>[], rows: readonly R[]): string[] {
  const shown = fields.filter((f) => !f.textless);
  return table(
    shown,
    rows.map((r, i) => shown.map((f) => f.text(r, i))),
  );
}

export const jsonObjects = <R>(fields: readonly Field<R>[], rows: readonly R[]) =>
  rows.map((r) => Object.fromEntries(fields.map((f) => [f.key, jsonOf(f, r)])));

/** structuredContent's rows: concise, the names once and each row an array; detailed, `items` whole. */
export const jsonTable = <R extends Record<string, unknown>>(
  fields: readonly Field<R>[],
  rows: readonly R[],
  detailed: boolean,
) =>
  detailed
    ? { items: rows.map((r) => cleanDeep(r) as Record<string, unknown>) }
    : { columns: fields.map((f) => f.key), rows: rows.map((r) => fields.map((f) => jsonOf(f, r))) };
