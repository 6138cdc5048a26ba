// watchlist: named lists of tokens an analyst follows, kept per API key in the history store.
import * as z from 'zod';
import { errorTag, ToolFailure } from '../format/errors.js';
import { result } from '../format/result.js';
import { plural, table } from '../format/text.js';
import { MAX_WATCHLIST_IDS, MAX_WATCHLISTS, type Store, type Watchlist } from '../store/types.js';
import { quote } from '../untrusted/text.js';
import { idList } from './shared.js';
import { type CallContext, defineTool } from './tool.js';

const ACTIONS = ['save', 'add', 'remove', 'delete', 'list', 'show'] as const;

/** A watchlist's name: data, shown quoted; control characters are refused. */
export const listName = z.string().min(1).max(64).describe('Watchlist');

/** Runs `fn` on the store for the caller's key, or fails the call with why history is unavailable. */
export async function withStore<T>(
  ctx: Pick<CallContext, 'history'>,
  fn: (store: Store, owner: string) => Promise<T>,
): Promise<T> {
  const outcome = ctx.history
    ? await ctx.history.use(fn)
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
    chain: z.enum(['chain_a', 'chain_b']).default('chain_a'),
    note: z.string().max(500).optional().describe('For save'),
  },
  ids: 'mintIds',
  annotations: { readOnlyHint: false, idempotentHint: false, openWorldHint: false },
  check: ({ action, name, mintIds, note }) => {
    if (action !== 'list' && !name) return `name is required for action "${action}"`;
    if (name && /[\p{Cc}\p{Cf}]/u.test(name)) return 'name: control characters are not allowed';
    if (note && /[\p{Cc}\p{Cf}]/u.test(note.replace(/\n/g, ' ')))
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
    return withStore(ctx, async (store, owner) => {
      const now = Date.now();
      const existing = args.action === 'list' ? undefined : await store.watchlist(owner, name);
      const described = (w: Watchlist) => ({
        name: w.name,
        chain: w.chain,
        tokens: w.mintIds.length,
        ...(w.note ? { note: w.note } : {}),
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
          const gone = await store.deleteWatchlist(owner, name);
          if (!gone) return missing(store, owner, name);
          return result({
            headline: `Watchlist ${quote(name, 64)} deleted (${plural(existing?.mintIds.length ?? 0, 'token')}; the token history stays)`,
            lines: [],
            query,
            data: { counts: { deleted: 1 } },
          });
        }
        case 'save': {
          const ids = args.mintIds ?? [];
          if (!existing && (await store.watchlists(owner)).length >= MAX_WATCHLISTS)
            throw new ToolFailure(
              `You have ${MAX_WATCHLISTS} watchlists, the most kept per API key: delete one first.\n${errorTag('limit', false)}`,
            );
          const saved: Watchlist = {
            name,
            chain: args.chain,
            note: args.note ?? '',
            mintIds: ids,
            created: existing?.created ?? now,
            updated: now,
          };
          await store.putWatchlist(owner, saved);
          return result({
            headline: `Watchlist ${quote(name, 64)} saved: ${plural(ids.length, 'token')} on ${args.chain}${existing ? ` (replaced ${plural(existing.mintIds.length, 'token')})` : ''}`,
            lines: [],
            query,
            data: { watchlist: described(saved), counts: { tokens: ids.length } },
            next: 'check_watchlist runs the investigation on it and keeps the result for the next comparison.',
          });
        }
        default: {
          // add, remove
          if (!existing) return missing(store, owner, name);
          const ids = args.mintIds ?? [];
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
          await store.putWatchlist(owner, { ...existing, mintIds, updated: now });
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
