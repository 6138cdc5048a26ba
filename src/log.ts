import { LOG_LEVELS, type LogLevel } from './config.js';

export type LogFields = Record<string, unknown>;

export interface Logger {
  error(msg: string, fields?: LogFields): void;
  warn(msg: string, fields?: LogFields): void;
  info(msg: string, fields?: LogFields): void;
  debug(msg: string, fields?: LogFields): void;
  /** The same logger, redacting one more secret too (a caller's own key, for that caller's requests). */
  redacting(secret: string | undefined): Logger;
}

const REDACTED = '[redacted]';

/**
 * A logger that writes one JSON line per event to stderr (stdout carries the stdio protocol).
 * Every secret passed in is replaced wherever it appears, glued to other characters too: in the decoded
 * strings (fields, messages, error causes, keys) before they are escaped as JSON, so an escaped form
 * cannot slip through, and once more in the finished line.
 */
export function createLogger(
  level: LogLevel,
  secrets: ReadonlyArray<string | undefined> = [],
  write: (line: string) => void = (line) => process.stderr.write(line),
): Logger {
  const threshold = LOG_LEVELS.indexOf(level);
  const hidden = secrets.filter((s): s is string => typeof s === 'string' && s.length > 0);
  const redact = (text: string) => {
    let out = text;
    for (const secret of hidden) if (out.includes(secret)) out = out.split(secret).join(REDACTED);
    return out;
  };
  const replacer = (_key: string, value: unknown): unknown => {
    const v = errorReplacer(value);
    if (typeof v === 'string') return redact(v);
    if (typeof v !== 'object' || v === null || Array.isArray(v)) return v;
    // Keys are decoded strings too.
    const keys = Object.keys(v);
    if (!keys.some((k) => redact(k) !== k)) return v;
    return Object.fromEntries(Object.entries(v).map(([k, x]) => [redact(k), x]));
  };
  const emit = (lvl: LogLevel, msg: string, fields?: LogFields) => {
    if (LOG_LEVELS.indexOf(lvl) > threshold) return;
    const line = JSON.stringify({ time: new Date().toISOString(), level: lvl, msg, ...fields }, replacer);
    write(`${redact(line)}\n`);
  };
  const logger: Logger = {
    error: (msg, fields) => emit('error', msg, fields),
    warn: (msg, fields) => emit('warn', msg, fields),
    info: (msg, fields) => emit('info', msg, fields),
    debug: (msg, fields) => emit('debug', msg, fields),
    // Called per HTTP request: no new logger unless there is a secret it does not already hide.
    redacting: (secret) =>
      secret && !hidden.includes(secret) ? createLogger(level, [...hidden, secret], write) : logger,
  };
  return logger;
}

function errorReplacer(value: unknown): unknown {
  if (value instanceof Error) {
    const { code, detail } = value as { code?: unknown; detail?: unknown };
    return {
      name: value.name,
      message: value.message,
      ...(code ? { code } : {}),
      ...(detail ? { detail } : {}),
      ...(value.cause !== undefined ? { cause: value.cause } : {}),
    };
  }
  return value;
}

export const silentLogger: Logger = {
  error() {},
  warn() {},
  info() {},
  debug() {},
  redacting: () => silentLogger,
};
