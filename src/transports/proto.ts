// The SDK's parsing drops an argument named `__proto__`, and the tool would run as if it were not sent: the
// transports rename it to the tools' marker, which `prepare` refuses under its real name (a type import only).
import type { PROTO_ARGUMENT as ToolsMarker } from '../tools/allowed.js';

const PROTO_ARGUMENT: typeof ToolsMarker = '__proto__\u0000';

/** Renames an own `__proto__` key in the arguments of tools/call messages (one message or a batch). */
export function keepProtoArguments(body: unknown): void {
  for (const message of Array.isArray(body) ? body : [body]) {
    const args = (message as { method?: unknown; params?: { arguments?: unknown } } | null)?.params
      ?.arguments;
    if ((message as { method?: unknown })?.method !== 'tools/call') continue;
    if (typeof args !== 'object' || args === null || !Object.hasOwn(args, '__proto__')) continue;
    const value = Object.getOwnPropertyDescriptor(args, '__proto__')?.value;
    Reflect.deleteProperty(args, '__proto__');
    Object.defineProperty(args, PROTO_ARGUMENT, {
      value,
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
}

/** A stdio line with any `__proto__` argument renamed; the line itself when it can hold none. */
export function keepProtoArgumentsInLine(line: Buffer): Buffer {
  const text = line.toString('utf8');
  if (!text.includes('__proto__') && !text.includes('\\u')) return line;
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return line;
  }
  const before = JSON.stringify(body);
  keepProtoArguments(body);
  const after = JSON.stringify(body);
  return after === before ? line : Buffer.from(`${after}\n`);
}
