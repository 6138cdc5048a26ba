// Cleaning upstream text (biome allows control characters in these regular expressions: removing them).
const ANSI = /\u001b\[[0-9;?]*[ -/]*[@-~]|\u001b\][^\u0007\u001b]*(?:\u0007|\u001b\\)?/g;
const BREAKS = /[\t\n\v\f\r\u0085\u2028\u2029]/g;
// C0/C1 controls, zero-width, bidi overrides and isolates, BOM, annotations, variation selectors and tags.
const INVISIBLE =
  /[\u0000-\u001f\u007f-\u009f\u00ad\u061c\u180e\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u206f\ufeff\ufff9-\ufffb]|[\ufe00-\ufe0f]|\udb40[\udc00-\udc7f\udd00-\uddef]/g;
/** Printable ASCII, single spaces between words, none at either end: already clean. */
const PLAIN = /^(?:[!-~]+(?: [!-~]+)*)?$/;
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/** A string safe to show: no control, invisible or direction characters, no line breaks, at most `max` characters. */
export function clean(value: unknown, max = 120): string {
  const raw = String(value ?? '');
  if (raw.length <= max && PLAIN.test(raw)) return raw;
  let text = fold(raw).replace(LONE_SURROGATE, '\ufffd').trim();
  if (text.length > max) text = `${text.slice(0, max - 1).replace(LONE_SURROGATE, '')}…`;
  return text;
}

/** Anything `clean` removes or folds (line and paragraph separators: whitespace other than a space). */
const DISGUISE = new RegExp(`${INVISIBLE.source}|\\s\\s|[^\\S ]`);

/** What `clean` keeps before it cuts: escapes, controls and invisibles removed, whitespace folded (src/redact.ts). */
export function fold(raw: string): string {
  if (!DISGUISE.test(raw)) return raw;
  return raw.replace(ANSI, '').replace(BREAKS, ' ').replace(INVISIBLE, '').replace(/\s+/g, ' ');
}

const ANSI_HERE = new RegExp(ANSI.source, 'y');
const VISIBLE_ASCII_RUN = /[!-~]+/y;
const INVISIBLE_ONE = new RegExp(`^(?:${INVISIBLE.source})$`);
const BREAK_ONE = new RegExp(`^${BREAKS.source}$`);

/** What a reader may take a string for (`fold`, NFKC) and each character's span in `raw` (src/redact.ts). */
export function readerView(raw: string): { text: string; from: number[]; to: number[] } {
  let text = '';
  const from: number[] = [];
  const to: number[] = [];
  /** `shown` for raw[start, end): each of its characters came from all of that span. */
  const add = (shown: string, start: number, end: number) => {
    text += shown;
    for (let k = 0; k < shown.length; k++) {
      from.push(start);
      to.push(end);
    }
  };
  for (let i = 0; i < raw.length; ) {
    VISIBLE_ASCII_RUN.lastIndex = i;
    ANSI_HERE.lastIndex = i;
    if (VISIBLE_ASCII_RUN.test(raw)) {
      const end = VISIBLE_ASCII_RUN.lastIndex;
      text += raw.slice(i, end);
      for (; i < end; i++) {
        from.push(i);
        to.push(i + 1);
      }
    } else if (ANSI_HERE.test(raw)) i = ANSI_HERE.lastIndex;
    else {
      const char = String.fromCodePoint(raw.codePointAt(i) as number);
      const end = i + char.length;
      // A run of whitespace (breaks included, invisible characters within it ignored) is one space.
      if (BREAK_ONE.test(char) || (!INVISIBLE_ONE.test(char) && /^\s$/.test(char))) {
        if (text.endsWith(' ')) to[to.length - 1] = end;
        else add(' ', i, end);
      } else if (!INVISIBLE_ONE.test(char)) add(char.normalize('NFKC'), i, end);
      i = end;
    }
  }
  return { text, from, to };
}

const BINARY = /[\u0000-\u0008\u000e-\u001f\ufffd]/g;

/** NUL, replacement characters (bytes that were not UTF-8) or many controls: data that is not text. */
export function looksBinary(text: string): boolean {
  return text.includes('\u0000') || (text.match(BINARY) ?? []).length > text.length / 20;
}

/** An upstream string shown in text: cleaned and quoted, so it reads as data, never as the server's words. */
export const quote = (value: unknown, max = 120): string => JSON.stringify(clean(value, max));

/** A caller's own value echoed in an error: a JSON string literal, invisible characters escaped, not removed. */
export function literal(value: string, max = 48): string {
  const cut = value.length > max ? `${value.slice(0, max)}…` : value;
  return JSON.stringify(cut.replace(LONE_SURROGATE, '\ufffd')).replace(INVISIBLE, (c) =>
    c.replace(/[\s\S]/g, (u) => `\\u${u.charCodeAt(0).toString(16).padStart(4, '0')}`),
  );
}

/** A record for upstream keys: no prototype, so `"__proto__"` is a key like any other. */
export const dict = <T>(): Record<string, T> => Object.create(null);

export function cleanDeep(value: unknown, max = 500): unknown {
  if (typeof value === 'string') return clean(value, max);
  if (Array.isArray(value)) return value.map((v) => cleanDeep(v, max));
  if (value && typeof value === 'object') {
    const out = dict<unknown>();
    for (const [k, v] of Object.entries(value)) out[clean(k, 80)] = cleanDeep(v, max);
    return out;
  }
  return value;
}
