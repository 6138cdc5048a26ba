// What an argument may be, in words, and the marker the transports rename `__proto__` to. No imports:
// used before the handshake, which must not load the tools' zod schemas.

/** What the transports rename an argument named `__proto__` to (src/transports/proto.ts). */
export const PROTO_ARGUMENT = '__proto__\u0000';

export type JsonProp = Record<string, unknown> & { items?: JsonProp };

export function describeAllowed(prop: JsonProp | undefined): string {
  if (!prop) return 'no such parameter';
  const range = (min: unknown, max: unknown, unit = '') =>
    min !== undefined && max !== undefined
      ? `${min} to ${max}${unit}`
      : min !== undefined
        ? `at least ${min}${unit}`
        : max !== undefined
          ? `at most ${max}${unit}`
          : '';
  let text: string;
  if (Array.isArray(prop.enum)) text = `one of ${prop.enum.join(', ')}`;
  else if (prop.type === 'array')
    text = `a list of ${range(prop.minItems, prop.maxItems)} items, each ${describeAllowed(prop.items)}`;
  else if (prop.type === 'string')
    text = `a string of ${range(prop.minLength, prop.maxLength, ' characters')}`;
  else if (prop.type === 'integer' || prop.type === 'number')
    text =
      `${prop.type === 'integer' ? 'a whole number' : 'a number'} ${range(prop.minimum, prop.maximum)}`.trim();
  else text = String(prop.type ?? 'any value');
  return prop.default !== undefined ? `${text} (default ${prop.default})` : text;
}
