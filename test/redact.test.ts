// The redactor's shortcut for text of printable ASCII with line breaks (every result's text channel) finds
// exactly what the reader's-view pass finds: the same text in, the same text out, on thousands of cases.
import { describe, expect, it } from 'vitest';
import { REDACTED, redactor } from '../src/redact.js';
import { prng } from '../src/simulator/data.js';

const KEY = 'sk-live-7f3a9c1e5b2d';
const SHORT = 'abc123';
/** A secret with a space never takes the shortcut; one that never occurs leaves the results alone. */
const NEVER = 'never occurs here';

describe('redaction shortcut for printable ASCII with line breaks', () => {
  const fast = redactor([KEY, SHORT]);
  const slow = redactor([KEY, SHORT, NEVER]);
  const random = prng(25);
  const pick = <T>(list: readonly T[]) => list[Math.floor(random() * list.length)] as T;
  const pieces = [
    KEY,
    SHORT,
    'x',
    'Z9',
    ' ',
    '  ',
    '\n',
    '\t',
    '\r\n',
    '-',
    '[',
    ']',
    KEY.slice(0, 9),
    KEY.slice(9),
  ];

  it('gives what the full pass gives, on 5,000 generated texts', () => {
    for (let n = 0; n < 5_000; n++) {
      const text = Array.from({ length: 1 + Math.floor(random() * 12) }, () => pick(pieces)).join('');
      expect(fast.text(text), JSON.stringify(text)).toBe(slow.text(text));
    }
  });

  it('clears a whole result from its JSON only when nothing in it can hold a key: the same as the walk', () => {
    const odd = ['\u0001', '\b', '\f', '\u200b', 'é', '🐸', '\\', '"', '\u007f', '\ud800', 'ｓｋ'];
    // The key with something inside it that a reader does not see.
    const hidden = ['\u0001', '\b', '\u200b', '\u007f', '\u00ad'].map(
      (c) => `${KEY.slice(0, 9)}${c}${KEY.slice(9)}`,
    );
    const leaf = (): unknown => {
      const r = random();
      if (r < 0.1) return Math.floor(random() * 1e6);
      if (r < 0.15) return null;
      return Array.from({ length: 1 + Math.floor(random() * 6) }, () =>
        random() < 0.15 ? pick(odd) : random() < 0.05 ? pick(hidden) : pick(pieces),
      ).join('');
    };
    const node = (depth: number): unknown => {
      if (depth > 2 || random() < 0.3) return leaf();
      if (random() < 0.4) return Array.from({ length: Math.floor(random() * 4) }, () => node(depth + 1));
      return Object.fromEntries(
        Array.from({ length: 1 + Math.floor(random() * 4) }, () => [String(leaf()), node(depth + 1)]),
      );
    };
    for (let n = 0; n < 3_000; n++) {
      const value = { content: [{ type: 'text', text: leaf() }], structuredContent: node(0) };
      expect(fast.deep(value)).toEqual(slow.deep(value));
    }
    // A key in a key, in a nested list, or behind a control character is still found.
    expect(
      JSON.stringify(fast.deep({ [KEY]: [{ a: `x ${KEY}` }], b: `${KEY.slice(0, 4)}\u0001${KEY.slice(4)}` })),
    ).not.toMatch(/sk-live|7f3a9c1e5b2d/);
  });

  it('still removes a key on a line of its own, and a short one only as a whole word', () => {
    expect(fast.text(`a\n${KEY}\nb`)).toBe(`a\n${REDACTED}\nb`);
    expect(fast.text(`ok\t${SHORT}\n`)).toBe(`ok\t${REDACTED}\n`);
    expect(fast.text(`x${SHORT}\n`)).toBe(`x${SHORT}\n`);
    // A key split by a line break does not read as the key (the view has a space there): left as is.
    expect(fast.text(`${KEY.slice(0, 5)}\n${KEY.slice(5)}`)).toBe(`${KEY.slice(0, 5)}\n${KEY.slice(5)}`);
    // A key with a dot and an ellipsis that reads as its dots: found, the shortcut set aside.
    const dotted = redactor(['key...with.dots']);
    expect(dotted.text('x key…with.dots\n·')).toBe(`x ${REDACTED}\n·`);
    expect(dotted.deep({ t: 'key…with.dots' })).toEqual({ t: REDACTED });
    // Non-ASCII still goes through the reader's view: a fullwidth key is found.
    const wide = [...KEY].map((c) => String.fromCodePoint((c.codePointAt(0) as number) + 0xfee0)).join('');
    expect(fast.text(`line\n${wide}`)).toBe(`line\n${REDACTED}`);
  });
});
