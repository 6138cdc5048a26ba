// Guest source (helpers.js), run in each fresh context before the program: it defines `api`, the helpers
// and `console`, and returns `finish`, which runs the program and makes its answer JSON in the guest.
import { decimalText } from '../untrusted/numbers.js';
import { closestFirst } from './closest.js';
import { ARGS_MAX_CHARS, PARAMS_MAX } from './protocol.js';

export const PRELUDE = String.raw`(function (hostCall, hostLog, namesJson) {
'use strict';
// Taken now: a program that replaces JSON's functions changes its own data, not what crosses to the host.
const toJSON = JSON.stringify.bind(JSON);
const fromJSON = JSON.parse.bind(JSON);
const names = fromJSON(namesJson);
const MAX_ARGS = ${ARGS_MAX_CHARS};
const MAX_PARAMS = ${PARAMS_MAX};
const LINE_CHARS = 2000;
const define = (name, value) =>
  Object.defineProperty(globalThis, name, { value, writable: true, configurable: true, enumerable: false });
const stringify = (v) => toJSON(v, (k, x) => (typeof x === 'bigint' ? String(x) : x));
// In the answer and the log: Infinity and NaN as strings (JSON writes null); what JSON would drop or empty
// (a Map, a Set, a Symbol) as what it holds, and noted.
const finite = Number.isFinite;
const converted = new Set();
const JSONable = (k, x) => {
  const type = typeof x;
  if (type === 'number') return finite(x) ? x : String(x);
  if (type === 'bigint') return String(x);
  if (type === 'symbol') {
    converted.add('a Symbol as its description');
    return x.toString();
  }
  if (type !== 'object' || x === null) return x;
  if (x instanceof Map) {
    const entries = [...x.entries()];
    if (entries.every(([key]) => typeof key === 'string')) {
      converted.add('a Map as an object of its entries');
      return Object.fromEntries(entries);
    }
    converted.add('a Map as its [key, value] entries');
    return entries;
  }
  if (x instanceof Set) {
    converted.add('a Set as the list of its members');
    return [...x];
  }
  return x;
};
const answerJSON = (v) => toJSON(v, JSONable);
const typeName = (v) => (v === null ? 'null' : Array.isArray(v) ? 'an array' : typeof v);

const byCloseness = ${closestFirst.toString()};
// What no api function takes is refused here, not sent to the host: too many parameters, nested values.
const isScalar = (v) => v === null || typeof v !== 'object';
const argsProblem = (args) => {
  if (args === null || typeof args !== 'object' || Array.isArray(args)) return undefined;
  const keys = Object.keys(args);
  if (keys.length > MAX_PARAMS)
    return keys.length + ' named parameters (' + keys.slice(0, 5).map((k) => toJSON(k.slice(0, 40))).join(', ') +
      ', …); it takes at most ' + MAX_PARAMS + ', named in its line of the description';
  for (const k of keys) {
    const v = args[k];
    if (isScalar(v) || (Array.isArray(v) && v.every(isScalar))) continue;
    return 'parameter ' + toJSON(k.slice(0, 40)) + ' is ' + (Array.isArray(v) ? 'a list holding lists or objects' : typeName(v)) +
      '; parameters are strings, numbers, booleans or lists of ids';
  }
  return undefined;
};
// An api call notes when it is read (then): one that failed unread is named in the log.
const records = new WeakMap();
const unread = [];
class ApiCall extends Promise {
  then(onFulfilled, onRejected) {
    const record = records.get(this);
    if (record) record.read = true;
    return super.then(onFulfilled, onRejected);
  }
}
const fns = {};
for (const name of names) {
  const send = async function (args) {
    // Where the program called from: an error that comes back later carries this line, not the helper's.
    const site = new Error();
    const json = stringify(args === undefined ? {} : args);
    if (json !== undefined && json.length > MAX_ARGS)
      throw new TypeError('api.' + name + ': its arguments are ' + json.length + ' characters of JSON, over the ' + MAX_ARGS + ' an api call takes');
    // Judged as they would cross (a Date as its text, functions left out).
    const problem = json === undefined ? undefined : argsProblem(fromJSON(json));
    if (problem !== undefined) throw new TypeError('api.' + name + ': ' + problem + '. Nothing was sent.');
    let text;
    try {
      text = await hostCall(name, json === undefined ? '{}' : json);
    } catch (e) {
      const error = new Error(e && e.message !== undefined ? String(e.message) : String(e));
      error.stack = site.stack;
      throw error;
    }
    return fromJSON(text);
  };
  const fn = function (args) {
    const record = { read: false };
    const call = new ApiCall((resolve, reject) =>
      send(args).then(resolve, (e) => {
        record.error = e;
        unread.push(record);
        reject(e);
      }));
    records.set(call, record);
    return call;
  };
  Object.defineProperty(fn, 'name', { value: name });
  fns[name] = fn;
}
Object.freeze(fns);
define('api', new Proxy(fns, {
  get(target, prop) {
    if (typeof prop === 'symbol' || prop in target) return target[prop];
    if (prop === 'then' || prop === 'toJSON') return undefined;
    const list = byCloseness(prop, names);
    throw new TypeError('api.' + prop + ' is not a function; ' +
      (list.length ? 'did you mean api.' + list[0] + '? The api functions: ' + list.join(', ') : 'no api functions here'));
  },
}));

// Exact decimal arithmetic: each number at the digits JSON gives it, added as integers.
const DECIMAL = /^(-?)(\d+)(?:\.(\d+))?(?:e([+-]?\d+))?$/i;
const decimalOf = (v) => {
  const m = DECIMAL.exec(typeof v === 'number' ? String(v) : v.trim());
  const digits = BigInt(m[1] + m[2] + (m[3] || ''));
  const scale = (m[3] || '').length - Number(m[4] || 0);
  return scale >= 0 ? { units: digits, scale } : { units: digits * 10n ** BigInt(-scale), scale: 0 };
};
const decimalText = ${decimalText.toString()};
const total = (values) => {
  const parts = values.map(decimalOf);
  const scale = parts.reduce((s, d) => Math.max(s, d.scale), 0);
  let units = 0n;
  for (const d of parts) units += d.units * 10n ** BigInt(scale - d.scale);
  return { units, scale };
};
// units / divisor, rounded half away from zero at 20 more decimals (then read back as the nearest double).
const divided = ({ units, scale }, divisor) => {
  const extra = 20;
  const scaled = units * 10n ** BigInt(extra);
  const d = BigInt(divisor);
  let q = scaled / d;
  const r = scaled % d;
  if ((r < 0n ? -r : r) * 2n >= d) q += units < 0n ? -1n : 1n;
  return Number(decimalText(q, scale + extra));
};
const NUMERIC = /^\s*-?\d+(\.\d+)?(e[+-]?\d+)?\s*$/i;
const isNumber = (v) => (typeof v === 'number' && Number.isFinite(v)) || (typeof v === 'string' && NUMERIC.test(v));
const pick = (row, field) => {
  if (typeof field === 'function') return field(row);
  if (row === null || typeof row !== 'object') return undefined;
  if (field in row || !String(field).includes('.')) return row[field];
  let v = row;
  for (const key of String(field).split('.')) v = v === null || typeof v !== 'object' ? undefined : v[key];
  return v;
};
const checkRows = (fn, rows) => {
  if (!Array.isArray(rows)) throw new TypeError(fn + ' expects an array as its first argument, got ' + typeName(rows));
};
const has = (row, field) => {
  if (row === null || typeof row !== 'object') return false;
  if (field in row) return true;
  if (!field.includes('.')) return false;
  let v = row;
  for (const key of field.split('.')) {
    if (v === null || typeof v !== 'object' || !(key in v)) return false;
    v = v[key];
  }
  return true;
};
const FIELDS_SHOWN = 30;
// A field name that no row has is a mistake, not rows without a number: say so, with the fields they have.
const checkField = (fn, field, rows) => {
  if (typeof field !== 'string' && typeof field !== 'function')
    throw new TypeError(fn + '(rows, field): field must be a property name (a string, "a.b" for a nested one) or a function, got ' + typeName(field));
  if (typeof field !== 'string' || !rows.length || rows.some((row) => has(row, field))) return;
  const seen = new Set();
  for (const row of rows) if (row !== null && typeof row === 'object' && !Array.isArray(row)) for (const k of Object.keys(row)) seen.add(k);
  const fields = byCloseness(field, [...seen]);
  throw new TypeError(fn + ': field ' + toJSON(field) + ' is absent from every row; ' +
    (fields.length
      ? 'did you mean ' + toJSON(fields[0]) + '? The rows have: ' + fields.slice(0, FIELDS_SHOWN).join(', ') +
        (fields.length > FIELDS_SHOWN ? ' and ' + (fields.length - FIELDS_SHOWN) + ' more' : '')
      : 'the rows are not objects (the first: ' + String(stringify(rows[0])).slice(0, 40) + '); pass no field for a list of numbers'));
};
// The numbers among values (or among rows' field): null and undefined are skipped; anything else throws.
const numbersOf = (fn, values, field) => {
  checkRows(fn, values);
  if (field !== undefined) checkField(fn, field, values);
  const out = [];
  values.forEach((item, i) => {
    const v = field === undefined ? item : pick(item, field);
    if (v === null || v === undefined) return;
    if (!isNumber(v))
      throw new TypeError(fn + ': item ' + i + (field === undefined ? '' : ' (' + (typeof field === 'string' ? field : 'field') + ')') +
        ' is ' + (typeof v === 'string' ? toJSON(v.slice(0, 40)) : typeName(v)) + ', not a number');
    out.push(v);
  });
  return out;
};
define('sum', function sum(values, field) {
  const { units, scale } = total(numbersOf('sum', values, field));
  return Number(decimalText(units, scale));
});
define('mean', function mean(values, field) {
  const nums = numbersOf('mean', values, field);
  return nums.length ? divided(total(nums), nums.length) : null;
});
define('median', function median(values, field) {
  const nums = numbersOf('median', values, field).map((v) => ({ v, n: Number(v) }));
  if (!nums.length) return null;
  nums.sort((a, b) => a.n - b.n);
  const mid = nums.length >> 1;
  if (nums.length % 2) return nums[mid].n;
  const { units, scale } = total([nums[mid - 1].v, nums[mid].v]);
  return Number(decimalText(units * 5n, scale + 1));
});
const keyed = (fn, rows, field) => {
  checkRows(fn, rows);
  checkField(fn, field, rows);
  return rows.map((row, i) => {
    const v = pick(row, field);
    return { row, i, key: isNumber(v) ? Number(v) : null };
  });
};
const best = (fn, rows, field, better) => {
  let found = null;
  for (const k of keyed(fn, rows, field)) if (k.key !== null && (found === null || better(k.key, found.key))) found = k;
  return found === null ? null : found.row;
};
define('maxBy', function maxBy(rows, field) { return best('maxBy', rows, field, (a, b) => a > b); });
define('minBy', function minBy(rows, field) { return best('minBy', rows, field, (a, b) => a < b); });
define('sortBy', function sortBy(rows, field, order) {
  const direction = order === undefined ? 'asc' : order;
  if (direction !== 'asc' && direction !== 'desc')
    throw new TypeError("sortBy(rows, field, order): order must be 'asc' or 'desc', got " + toJSON(order));
  const sign = direction === 'asc' ? 1 : -1;
  return keyed('sortBy', rows, field)
    .sort((a, b) =>
      a.key === null || b.key === null
        ? (a.key === null) - (b.key === null) || a.i - b.i
        : (a.key - b.key) * sign || a.i - b.i)
    .map((k) => k.row);
});

const show = (v) => {
  const type = typeof v;
  if (v === undefined || type === 'string' || type === 'number' || type === 'function' || type === 'symbol') return String(v);
  if (v instanceof Error) return v.name + ': ' + v.message;
  try {
    return answerJSON(v) ?? String(v);
  } catch (e) {
    return String(v);
  }
};
const line = (...args) => {
  const text = args.map(show).join(' ');
  hostLog(text.length > LINE_CHARS ? text.slice(0, LINE_CHARS) + '… (' + (text.length - LINE_CHARS) + ' more characters)' : text);
};
define('console', Object.freeze({ log: line, info: line, warn: line, error: line, debug: line }));

// The program run; its answer as JSON text, and a note on the api calls that failed unread.
return async function finish(program) {
  const value = await program();
  let json;
  converted.clear();
  try {
    json = answerJSON(value);
  } catch (e) {
    throw new TypeError('the returned value cannot be made JSON (' + e.message + '): return plain objects, arrays, strings and numbers');
  }
  if (typeof value === 'function')
    throw new TypeError('the program returned a function, which JSON cannot carry: return the value it computes (call it), or plain objects, arrays, strings and numbers');
  const missed = unread.filter((r) => !r.read);
  const first = missed.length ? missed[0].error : undefined;
  const conversions = converted.size ? 'the answer held what JSON cannot carry as it is, and gives ' + [...converted].join(', ') : undefined;
  const unreadNote = missed.length
    ? missed.length + (missed.length === 1 ? ' api call' : ' api calls') + ' failed and ' + (missed.length === 1 ? 'was' : 'were') +
      ' never awaited (its error is lost unless awaited or caught); the first: ' +
      String(first && first.message !== undefined ? first.message : first).slice(0, 300)
    : undefined;
  const note = [conversions, unreadNote].filter(Boolean).join('; ') || undefined;
  return { json: json === undefined ? 'null' : json, note };
};
})`;
