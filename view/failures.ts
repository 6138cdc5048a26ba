// Failures as the report grouped them (by reason, most frequent first); the view never regroups.
import type { FailureGroup } from '../src/report/view-types.js';
import { advice, el, n, plural } from './dom.js';

/** The board's failures: a summary naming each reason (counts when several), the ids folded under it. */
export function failureDetails(groups: readonly FailureGroup[], failed: number) {
  const reasons =
    groups.length === 1
      ? (groups[0]?.error ?? '')
      : groups.map((g) => `${g.error} (${n(g.ids.length)})`).join('; ');
  const box = el('details', { class: 'failures' }, el('summary', {}, `${n(failed)} failed: ${reasons}`));
  for (const g of groups)
    box.append(
      el('p', {}, `${g.error} (${plural(g.ids.length, 'id')}):`),
      el('div', { class: 'ids id-list' }, g.ids.join(', ')),
    );
  return box;
}

/** Failures listed in full, each reason with its ids whole, and the text channel's hint. */
export function failureList(groups: readonly FailureGroup[], hint: string) {
  const box = el('div', { class: 'failures' });
  for (const g of groups) {
    const ids = el('span', { class: 'ids' }, g.ids.join(', '));
    box.append(el('p', {}, `${g.error} (${plural(g.ids.length, 'token')}): `, ids));
  }
  if (hint) box.append(el('p', { class: 'hint' }, `Hint: ${advice(hint)}`));
  return box;
}
