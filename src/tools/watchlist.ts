// watchlist: named lists of tokens an analyst follows, kept per API key in the history store.
import * as z from 'zod';
import type { ApiRequest } from '../api/client.js';
import { errorTag, ToolFailure } from '../format/errors.js';
import { result } from '../format/result.js';
import { plural, table } from '../format/text.js';
import { MAX_WATCHLIST_IDS, MAX_WATCHLISTS, type Store, type Watchlist } from '../store/types.js';
import { clean, quote } from '../untrusted/text.js';
import { invalid } from './arguments.js';
import { idList } from './shared.js';
import { type CallContext, defineTool } from './tool.js';

const ACTIONS = ['save', 'add', 'remove', 'delete', 'list', 'show'] as const;

/** A watchlist's name: data, shown quoted; control characters are refused. */
export const listName = z.string().min(1).max(64).describe('Watchlist');

const CONTROL = /[\p{Cc}\p{Cf}]/u;
/** The argument problem of a name or of ids with control or invisible characters (`check`s' line), if any. */
export function controlProblem(
  param: string,
  values: readonly string[] | string | undefined,
): string | undefined {
  const list = typeof values === 'string' ? [values] : (values ?? []);
  const at = list.findIndex((v) => CONTROL.test(v));
  if (at < 0) return undefined;
  return `${param}${typeof values === 'string' ? '' : `[${at}]`}: control and invisible characters are not allowed`;
}

/**
 * What a new list's name may hold: letters, marks, numbers, punctuation, symbols and the plain space
 * (U+0020), and of those not the invisible ones (default-ignorable: Hangul fillers, joiners, variation
 * selectors) nor the braille blank. Line and paragraph separators, other spaces (no-break, ideographic,
 * ogham), controls, format characters and lone surrogates are refused: two names that show alike are alike.
 */
const UNPRINTABLE = /[^\p{L}\p{M}\p{N}\p{P}\p{S} ]|\p{Default_Ignorable_Code_Point}|\u2800/u;
/** The argument problem of a name `save` would keep, if any (a list is found again by any name it has). */
export function newNameProblem(name: string | undefined): string | undefined {
  if (name === undefined) return undefined;
  if (UNPRINTABLE.test(name))
    return 'name: control and invisible characters are not allowed, nor spaces other than U+0020 (letters, marks, numbers, punctuation, symbols and single spaces only)';
  if (/^ | $| {2}/.test(name)) return 'name: no space at either end, nor two in a row';
  return undefined;
}
/** A note's line and paragraph separators other than \n, controls and format characters: refused. */
const NOTE_CONTROL = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]|\p{Default_Ignorable_Code_Point}/u;

/** One upstream request that says whether the upstream accepts the caller's key: the document's own example. */
export const KEY_PROBE: ApiRequest = { method: 'GET', path: '/health' };

/**
 * Runs `fn` on the store for the caller's key, or fails the call with why history is unavailable. A write
 * by a key the upstream has not yet accepted first makes `KEY_PROBE` (its refusal is the call's error).
 */
export async function withStore<T>(
  ctx: Pick<CallContext, 'history' | 'send'>,
  fn: (store: Store, owner: string) => Promise<T>,
): Promise<T> {
  const outcome = ctx.history
    ? await ctx.history.use(fn, () => ctx.send(KEY_PROBE))
    : { unavailable: 'this server keeps no history', lasting: true as const };
  if ('value' in outcome) return outcome.value;
  throw new ToolFailure(
    `History unavailable: ${outcome.unavailable}. Nothing was read or changed.\n${errorTag('history_unavailable', !outcome.lasting)}`,
  );
}

/** A missing watchlist: the failure names the caller's lists. */
export async function missing(store: Store, owner: string, name: string): Promise<never> {
  const names = (await store.watchlists(owner)).map((w) => quote(w.name, 64));
  throw new ToolFailure(
    `No watchlist named ${quote(name, 64)}. ${names.length ? `Yours: ${names.join(', ')}.` : 'You have none yet: watchlist with action "save" makes one.'}\n${errorTag('not_found', false)}`,
  );
}

const iso = (ms: number) => new Date(ms).toISOString().replace(/:\d\d\.\d+Z$/, 'Z');

export const watchlist = defineTool({
  name: 'watchlist',
  title: 'Watchlists',
  description: 'Token lists kept per API key: save (replaces), add, remove, delete, list, show.',
  input: {
    action: z.enum(ACTIONS),
    name: listName.optional(),
    mintIds: idList(MAX_WATCHLIST_IDS).optional(),
    // No schema default (the JSON Schema shows chain_a, save's): add must tell a chain given from none.
    chain: z.enum(['chain_a', 'chain_b']).optional().meta({ default: 'chain_a' }),
    note: z.string().max(500).optional().describe('For save'),
  },
  ids: 'mintIds',
  annotations: { readOnlyHint: false, idempotentHint: false, openWorldHint: false },
  check: ({ action, name, mintIds, note }) => {
    if (action !== 'list' && !name) return `name is required for action "${action}"`;
    const control =
      (action === 'save' ? newNameProblem(name) : controlProblem('name', name)) ??
      controlProblem('mintIds', mintIds);
    if (control) return control;
    if (note && NOTE_CONTROL.test(note.replace(/\n/g, ' ')))
      return 'note: control characters are not allowed';
    if (['save', 'add', 'remove'].includes(action) && !mintIds)
      return `mintIds is required for action "${action}"`;
    return undefined;
  },
  output: {
    watchlists: z.array(z.object({}).loose()).optional(),
    watchlist: z.object({}).loose().optional(),
    mintIds: z.array(z.string()).optional(),
    counts: z.object({}).loose().optional(),
  },
  async run(args, ctx) {
    const name = args.name ?? '';
    const query = { action: args.action, ...(args.name ? { name } : {}) };
    const writes = args.action !== 'list' && args.action !== 'show';
    // The key in a value kept in the store (as it stands or as a reader takes it): refused, nothing written.
    const holdsKey = (v: string) => ctx.redact !== undefined && ctx.redact(v) !== v;
    const keyed = !writes
      ? undefined
      : holdsKey(name)
        ? 'name'
        : args.note && holdsKey(args.note)
          ? 'note'
          : args.mintIds?.some(holdsKey)
            ? 'mintIds'
            : undefined;
    if (keyed)
      throw new ToolFailure(
        invalid('watchlist', [`${keyed}: holds the API key; a key is never kept in the history store`]),
      );
    return withStore(ctx, async (store, owner) => {
      const now = Date.now();
      // Writes by a key the upstream has not accepted yet: the probe goes first, whatever the list's state.
      if (writes && ctx.history) await ctx.history.verify(() => ctx.send(KEY_PROBE));
      const described = (w: Watchlist) => ({
        name: w.name,
        chain: w.chain,
        tokens: w.mintIds.length,
        // As the text shows it (one line, cleaned): a note's line breaks start no line of their own here either.
        ...(w.note ? { note: clean(w.note, 500) } : {}),
        created: iso(w.created),
        updated: iso(w.updated),
      });
      switch (args.action) {
        case 'list': {
          const lists = await store.watchlists(owner);
          const rows = lists.map((w) => [
            quote(w.name, 64),
            w.chain,
            String(w.mintIds.length),
            iso(w.updated),
          ]);
          return result({
            headline: `Watchlists: ${plural(lists.length, 'watchlist')} (of at most ${MAX_WATCHLISTS})`,
            lines: lists.length
              ? table(
                  [
                    { header: 'name' },
                    { header: 'chain' },
                    { header: 'tokens', align: 'right' },
                    { header: 'updated' },
                  ],
                  rows,
                )
              : ['None yet.'],
            query,
            data: { watchlists: lists.map(described) },
            next: lists.length
              ? 'check_watchlist with a name re-checks its tokens and says what changed.'
              : 'watchlist with action "save", a name and mintIds makes one.',
          });
        }
        case 'show': {
          const existing = await store.watchlist(owner, name);
          if (!existing) return missing(store, owner, name);
          const last = await store.lastCheck(owner, name);
          return result({
            headline: `Watchlist ${quote(name, 64)}: ${plural(existing.mintIds.length, 'token')} on ${existing.chain}`,
            lines: [
              existing.note ? `Note: ${quote(existing.note, 500)}` : undefined,
              `Last checked: ${last ? iso(last.at) : 'never'}`,
              `Ids: ${existing.mintIds.join(', ')}`,
            ],
            query,
            data: {
              watchlist: { ...described(existing), lastChecked: last ? iso(last.at) : null },
              mintIds: existing.mintIds,
            },
            next: 'check_watchlist re-checks these tokens; get_token_history shows what was recorded of them.',
          });
        }
        case 'delete': {
          // Read, decided and written in one transaction (src/store/types.ts `changeWatchlist`).
          const gone = await store.changeWatchlist(owner, name, (existing) =>
            existing ? { delete: true, value: existing } : { value: undefined },
          );
          if (!gone) return missing(store, owner, name);
          return result({
            headline: `Watchlist ${quote(name, 64)} deleted (${plural(gone.mintIds.length, 'token')}; the token history stays)`,
            lines: [],
            query,
            data: { counts: { deleted: 1 } },
          });
        }
        case 'save': {
          const ids = args.mintIds ?? [];
          const chain = args.chain ?? 'chain_a';
          const { saved, replaced } = await store.changeWatchlist(owner, name, (existing, lists) => {
            if (!existing && lists >= MAX_WATCHLISTS)
              throw new ToolFailure(
                `You have ${MAX_WATCHLISTS} watchlists, the most kept per API key: delete one first. Nothing was changed.\n${errorTag('limit', false)}`,
              );
            const saved: Watchlist = {
              name,
              chain,
              note: args.note ?? '',
              mintIds: ids,
              created: existing?.created ?? now,
              updated: now,
            };
            return { put: saved, value: { saved, replaced: existing?.mintIds.length } };
          });
          return result({
            headline: `Watchlist ${quote(name, 64)} saved: ${plural(ids.length, 'token')} on ${chain}${replaced !== undefined ? ` (replaced ${plural(replaced, 'token')})` : ''}`,
            lines: [],
            query,
            data: { watchlist: described(saved), counts: { tokens: ids.length } },
            next: 'check_watchlist runs the investigation on it and keeps the result for the next comparison.',
          });
        }
        default: {
          // add, remove: read, decided and written in one transaction, so concurrent changes add up.
          const ids = args.mintIds ?? [];
          const outcome = await store.changeWatchlist(owner, name, (existing) => {
            if (!existing) return { value: undefined };
            if (args.action === 'add' && args.chain && args.chain !== existing.chain)
              throw new ToolFailure(
                `${quote(name, 64)} is a ${existing.chain} watchlist; these ids were given for ${args.chain}. Nothing was changed: add them without chain (or with chain ${existing.chain}) if they are ${existing.chain} tokens, or save them to a ${args.chain} watchlist of their own.\n${errorTag('invalid_arguments', false)}`,
              );
            const before = new Set(existing.mintIds);
            let mintIds: string[];
            let changed: number;
            if (args.action === 'add') {
              const added = ids.filter((id) => !before.has(id));
              mintIds = [...existing.mintIds, ...added];
              changed = added.length;
              if (mintIds.length > MAX_WATCHLIST_IDS)
                throw new ToolFailure(
                  `Adding ${plural(added.length, 'id')} would make ${quote(name, 64)} ${mintIds.length} ids long; a watchlist holds at most ${MAX_WATCHLIST_IDS}. Nothing was changed.\n${errorTag('limit', false)}`,
                );
            } else {
              const drop = new Set(ids);
              mintIds = existing.mintIds.filter((id) => !drop.has(id));
              changed = existing.mintIds.length - mintIds.length;
            }
            return { put: { ...existing, mintIds, updated: now }, value: { mintIds, changed } };
          });
          if (!outcome) return missing(store, owner, name);
          const { mintIds, changed } = outcome;
          const verb = args.action === 'add' ? 'Added' : 'Removed';
          const other = ids.length - changed;
          return result({
            headline: `${verb} ${plural(changed, 'id')} ${args.action === 'add' ? 'to' : 'from'} ${quote(name, 64)}: now ${plural(mintIds.length, 'token')}${other ? ` (${other} ${args.action === 'add' ? 'already in it' : 'not in it'})` : ''}`,
            lines: [],
            query,
            data: {
              counts: { [args.action === 'add' ? 'added' : 'removed']: changed, tokens: mintIds.length },
            },
          });
        }
      }
    });
  },
});
