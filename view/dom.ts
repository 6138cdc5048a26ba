// What every view shares: elements from text (never HTML), the text's number and UTC time formats, colours.
import { num } from '../src/format/text.js';

export type Json = Record<string, unknown>;
export const asRecord = (v: unknown): Json =>
  v && typeof v === 'object' && !Array.isArray(v) ? (v as Json) : {};
export const asArray = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);

/** A number as the text channel writes it (1,234,567; 0.93; 2,490.2); a dash when there is none. */
export const n = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? num(v) : '—');

/** One time format everywhere: 2026-11-20 12:00 UTC (`short`: without the year and the zone, for ticks). */
export function time(ms: number, short = false): string {
  if (!Number.isFinite(ms)) return '—';
  const iso = new Date(ms).toISOString();
  return short ? `${iso.slice(5, 10)} ${iso.slice(11, 16)}` : `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC`;
}
/** An upstream date-time string in that format, or as it came when it does not parse. */
export const timeOf = (v: unknown) => {
  const ms = Date.parse(String(v ?? ''));
  return Number.isFinite(ms) ? time(ms) : v == null ? '—' : String(v);
};

export function el<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attrs: Record<string, string> = {},
  ...children: Array<Node | string | null | undefined | false>
): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  put(node, ...children);
  return node;
}

export const alertText = (text: string) => el('p', { class: 'error', role: 'alert' }, text);

/** A CSS colour (a variable, say) as the rgb() the browser resolves it to, for drawing on a canvas. */
export function resolveColor(css: string): string {
  const probe = el('span', { 'aria-hidden': 'true' });
  Object.assign(probe.style, { color: css, display: 'none' });
  document.body.append(probe);
  const out = getComputedStyle(probe).color;
  probe.remove();
  return out;
}

/** Called again whenever the host changes the theme (charts redraw with the new colours). */
const rethemers = new Set<() => void>();
export const onTheme = (f: () => void) => rethemers.add(f);
export const clearTheme = () => rethemers.clear();
export const rethemed = () => {
  for (const f of rethemers) f();
};

/** Appends the children that are there (a condition that is false leaves nothing, not the text "null"). */
export function put(parent: HTMLElement, ...children: Array<Node | string | null | undefined | false>) {
  for (const c of children) if (c !== null && c !== undefined && c !== false) parent.append(c);
}

export const plural = (count: number, one: string, many = `${one}s`) =>
  `${n(count)} ${count === 1 ? one : many}`;

/** A tool result's text content, as the model reads it (what an error says, and what to change). */
export const textOf = (result: { content?: unknown }) =>
  asArray(result.content)
    .map(asRecord)
    .flatMap((c) => (c.type === 'text' && typeof c.text === 'string' ? [c.text] : []))
    .join('\n')
    .trim();

/** A hint as advice to a person: "analyze_botting with chain chain_b, platform platform_b" → "chain_b / platform_b". */
export const advice = (text: string) =>
  text.replace(/\b[a-z]+(?:_[a-z]+)+ with chain ([\w-]+), platform ([\w-]+)/g, '$1 / $2');

/** The demo mode's line in a result's text (src/server.ts): the page's banner says it instead. */
export const DEMO_LINE = /^SIMULATED DATA \(demo mode\)/i;
/** The machine tag that ends an error's text, "[error: kind · final]". */
const TAG = /^\[error: (.+)\]$/;

/** An error as every view shows it: read out, line by line; the demo marker left out, the machine tag dim. */
export function errorBox(title: string, text: string) {
  const box = el('div', { class: 'error-box', role: 'alert' }, el('p', { class: 'error-title' }, title));
  for (const line of text.split('\n')) {
    const said = line.trim();
    const tag = TAG.exec(said);
    if (tag)
      box.append(el('p', { class: 'error-tag muted', title: 'error kind (for support)' }, tag[1] ?? ''));
    else if (said && !DEMO_LINE.test(said)) box.append(el('p', {}, advice(line)));
  }
  return box;
}
