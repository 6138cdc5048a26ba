import { LOG_LEVELS, type LogLevel } from './config.js';

export type LogFields = Record<string, unknown>;

export interface Logger {
  error(msg: string, fields?: LogFields): void;
  warn(msg: string, fields?: LogFields): void;
  info(msg: string, fields?: LogFields): void;
  debug(msg: string, fields?: LogFields): void;
}

const REDACTED = '[redacted]';

/**
 * A logger that writes one JSON line per event to stderr (stdout carries the stdio protocol).
 * Every secret passed in is replaced wherever it appears in the line: fields, messages, error causes.
 */
export function createLogger(
  level: LogLevel,
  secrets: ReadonlyArray<string | undefined> = [],
  write: (line: string) => void = (line) => process.stderr.write(line),
): Logger {
  const threshold = LOG_LEVELS.indexOf(level);
  const hidden = secrets.filter((s): s is string => typeof s === 'string' && s.length > 0);
  const emit = (lvl: LogLevel, msg: string, fields?: LogFields) => {
    if (LOG_LEVELS.indexOf(lvl) > threshold) return;
    let line = JSON.stringify({ time: new Date().toISOString(), level: lvl, msg, ...fields }, errorReplacer);
    for (const secret of hidden) line = line.split(secret).join(REDACTED);
    write(`${line}\n`);
  };
  return {
    error: (msg, fields) => emit('error', msg, fields),
    warn: (msg, fields) => emit('warn', msg, fields),
    info: (msg, fields) => emit('info', msg, fields),
    debug: (msg, fields) => emit('debug', msg, fields),
  };
}

function errorReplacer(_key: string, value: unknown): unknown {
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

export const silentLogger: Logger = { error() {}, warn() {}, info() {}, debug() {} };
