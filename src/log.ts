import { LOG_LEVELS, type LogLevel } from './config.js';
import { redactor, SUBSTRING_MIN } from './redact.js';

export type LogFields = Record<string, unknown>;

export interface Logger extends Record<LogLevel, (msg: string, fields?: LogFields) => void> {
  /** The same logger, redacting one more secret (a caller's own key, for its requests). */
  redacting(secret: string | undefined): Logger;
}

/** The fields the server writes itself, never redacted (a caller's key must not blank them). */
const OWN = new Set(['time', 'level', 'msg']);
const OWN_EMPTY = { time: undefined, level: undefined, msg: undefined };

/** One JSON line per event on stderr, secrets redacted; a line that would still show one is withheld. */
export function createLogger(
  level: LogLevel,
  secrets: ReadonlyArray<string | undefined> = [],
  write: (line: string) => void = (line) => process.stderr.write(line),
): Logger {
  const threshold = LOG_LEVELS.indexOf(level);
  const hidden = secrets.filter((s): s is string => typeof s === 'string' && s.length >= SUBSTRING_MIN);
  const redact = redactor(hidden);
  function replacer(this: unknown, key: string, value: unknown): unknown {
    const v = errorReplacer(value);
    if (key === '' || (this === root && OWN.has(key))) return v;
    if (typeof v === 'string') return redact.text(v);
    if (typeof v !== 'object' || v === null || Array.isArray(v)) return v;
    // Nested keys are decoded strings too (the top level's are the server's own names).
    const keys = Object.keys(v);
    if (!keys.some((k) => redact.text(k) !== k)) return v;
    return Object.fromEntries(Object.entries(v).map(([k, x]) => [redact.text(k), x]));
  }
  let root: unknown;
  const emit = (lvl: LogLevel, msg: string, fields?: LogFields) => {
    if (LOG_LEVELS.indexOf(lvl) > threshold) return;
    const own = { time: new Date().toISOString(), level: lvl, msg };
    root = { ...own, ...fields };
    let line = JSON.stringify(root, replacer);
    // The last check looks at what came from elsewhere, never at the server's own words.
    if (hidden.length && fields && redact.found(JSON.stringify({ ...fields, ...OWN_EMPTY }, replacer)))
      line = JSON.stringify({ ...own, msg: 'log line withheld: it would show a secret' });
    write(`${line}\n`);
  };
  const logger = {
    // Called per HTTP request: no new logger without a secret it does not already hide.
    redacting: (secret) =>
      secret && secret.length >= SUBSTRING_MIN && !hidden.includes(secret)
        ? createLogger(level, [...hidden, secret], write)
        : logger,
  } as Logger;
  for (const lvl of LOG_LEVELS) logger[lvl] = (msg, fields) => emit(lvl, msg, fields);
  return logger;
}

function errorReplacer(value: unknown): unknown {
  if (!(value instanceof Error)) return value;
  const { name, message, cause, code, detail } = value as Error & { code?: unknown; detail?: unknown };
  return {
    name,
    message,
    ...(code ? { code } : {}),
    ...(detail ? { detail } : {}),
    ...(cause !== undefined ? { cause } : {}),
  };
}

export const silentLogger = createLogger('error', [], () => {});
