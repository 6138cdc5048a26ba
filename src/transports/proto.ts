// The SDK's parsing drops an argument named `__proto__`, and the tool would run as if it were not sent: the
// transports rename it to the tools' marker, which `prepare` refuses under its real name (a type import only).
import type { PROTO_ARGUMENT as ToolsMarker } from '../tools/allowed.js';

const PROTO_ARGUMENT: typeof ToolsMarker = '__proto__\u0000';

/** Renames an own `__proto__` key in the arguments of tools/call messages (one message or a batch). */
export function keepProtoArguments(body: unknown): void {
  for (const message of Array.isArray(body) ? body : [body]) {
    const m = message as { method?: unknown; params?: { arguments?: unknown } } | null;
    const args = m?.params?.arguments as Record<string, unknown> | null | undefined;
    if (m?.method !== 'tools/call' || typeof args !== 'object' || args === null) continue;
    if (!Object.hasOwn(args, '__proto__')) continue;
    args[PROTO_ARGUMENT] = Object.getOwnPropertyDescriptor(args, '__proto__')?.value;
    Reflect.deleteProperty(args, '__proto__');
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
