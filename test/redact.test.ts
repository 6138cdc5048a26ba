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

  it('still removes a key on a line of its own, and a short one only as a whole word', () => {
    expect(fast.text(`a\n${KEY}\nb`)).toBe(`a\n${REDACTED}\nb`);
    expect(fast.text(`ok\t${SHORT}\n`)).toBe(`ok\t${REDACTED}\n`);
    expect(fast.text(`x${SHORT}\n`)).toBe(`x${SHORT}\n`);
    // A key split by a line break does not read as the key (the view has a space there): left as is.
    expect(fast.text(`${KEY.slice(0, 5)}\n${KEY.slice(5)}`)).toBe(`${KEY.slice(0, 5)}\n${KEY.slice(5)}`);
    // Non-ASCII still goes through the reader's view: a fullwidth key is found.
    const wide = [...KEY].map((c) => String.fromCodePoint((c.codePointAt(0) as number) + 0xfee0)).join('');
    expect(fast.text(`line\n${wide}`)).toBe(`line\n${REDACTED}`);
  });
});
