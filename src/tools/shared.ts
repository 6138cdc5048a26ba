// Schema pieces declared once and composed by the tools: ids, paging, chain and platform.
import * as z from 'zod';
import {
  type Bound,
  type Chain,
  DEFAULT_CHAIN,
  ENDPOINTS,
  type EndpointName,
  idLimit,
  PLATFORM_CHAIN,
  type Platform,
  type Scope,
} from '../api/endpoints.js';
import type { Field } from '../format/columns.js';

export { type Chain, PLATFORM_CHAIN, type Platform, SCOPES, type Scope } from '../api/endpoints.js';

export const mintId = z.string().min(32).max(44);

/** A batch of token ids: 1 to `max`, each 32 to 44 characters; duplicates are sent once. */
export const idList = (max: number, what = 'Token mint ids') =>
  z.array(mintId).min(1).max(max).describe(what);

/** An endpoint's whole-number parameter, with the document's range and default. */
export function bounded(endpoint: EndpointName, param: string, what: string) {
  const bound = (ENDPOINTS[endpoint] as { bounds?: Record<string, Bound> }).bounds?.[param];
  if (!bound) throw new Error(`${endpoint} has no bounds for ${param}`);
  const int = z.number().int().min(bound.min);
  return (bound.max === undefined ? int : int.max(bound.max)).default(bound.default).describe(what);
}

export const idsOf = (endpoint: EndpointName, what?: string) => idList(idLimit(endpoint), what);

export const page = bounded('streamers', 'page', 'Page');

export const responseFormat = z.enum(['concise', 'detailed']).default('concise');

/** Where `platform` goes when omitted: chain_a → platform_a, chain_b → all (or platform_b), all → all. */
export function platformFor(chain: Chain, scope: Scope): Platform {
  if (chain === 'chain_a') return 'platform_a';
  if (chain === 'chain_b') return scope.platforms.includes('all') ? 'all' : 'platform_b';
  return 'all';
}

/** `chain` and `platform` fields; `chain` shows its documented default, `platform` has none. */
export function scopeShape(scope: Scope) {
  const omitted = `chain_a:platform_a, chain_b:${platformFor('chain_b', scope)}${scope.chains.includes('all') ? ', all:all' : ''}`;
  return {
    chain: z.enum(scope.chains).optional().meta({ default: DEFAULT_CHAIN }),
    platform: z.enum(scope.platforms).optional().describe(`Must belong to chain; omitted: ${omitted}`),
  };
}

const validPairs = (scope: Scope) =>
  scope.chains
    .map((chain) => {
      const platforms = scope.platforms.filter(
        (p) => p === 'all' || chain === 'all' || PLATFORM_CHAIN[p] === chain,
      );
      return `${chain} with ${platforms.join(' or ')}`;
    })
    .join('; ');

export function resolveScope(
  chain: Chain | undefined,
  platform: Platform | undefined,
  scope: Scope,
): { chain: Chain; platform: Platform } | { error: string } {
  const concrete = platform && platform !== 'all' ? PLATFORM_CHAIN[platform] : undefined;
  const resolvedChain: Chain = chain ?? concrete ?? DEFAULT_CHAIN;
  if (concrete && resolvedChain !== 'all' && concrete !== resolvedChain) {
    return {
      error: `chain "${resolvedChain}" and platform "${platform}" contradict each other: ${platform} belongs to ${concrete}. Valid pairs: ${validPairs(scope)}; or omit platform to follow the chain.`,
    };
  }
  return { chain: resolvedChain, platform: platform ?? platformFor(resolvedChain, scope) };
}

/** A next-step hint's scope: nothing for the defaults, else ` with chain chain_b, platform platform_b`. */
export const scopeHint = (chain: unknown, platform: unknown) =>
  chain === DEFAULT_CHAIN && platform === 'platform_a' ? '' : ` with chain ${chain}, platform ${platform}`;

/** The hint when half or more of the `requested` ids are not found with the pair sent: the other pairs to try. */
export const otherChainHint =
  (tool: string, scope: Scope, { chain, platform }: { chain: string; platform: string }, requested: number) =>
  (unknown: number): string | undefined => {
    const tries = otherPairs(tool, chain as Chain, platform, scope);
    if (unknown === 0 || unknown * 2 < requested || tries.length === 0) return undefined;
    const where = `chain ${chain}, platform ${platform}`;
    const how =
      unknown === requested
        ? `${requested === 1 ? 'the id sent was not found' : `none of the ${requested} ids sent was found`} with ${where}`
        : `${unknown} of the ${requested} ids sent ${unknown === 1 ? 'was' : 'were'} not found with ${where}`;
    return `${how} (no other chain or platform was asked); they may be another platform's or chain's tokens: try ${tries.join(', or ')}.`;
  };

/** Up to three calls of `tool` with pairs not yet asked: the chain's other platforms, all, other chains. */
export function otherPairs(tool: string, chain: Chain, platform: string, scope: Scope): string[] {
  const takes = (p: Platform) => scope.platforms.includes(p);
  const pairs: Array<[Chain, Platform]> = [];
  // `all` where some other platform of the chain cannot be asked alone (chain_b's platform_c, mostly).
  if (chain !== 'all' && platform !== 'all') {
    const siblings = Object.entries(PLATFORM_CHAIN).filter(([p, c]) => c === chain && p !== platform);
    const alone = siblings.filter(([p]) => takes(p as Platform));
    for (const [p] of alone) pairs.push([chain, p as Platform]);
    if (takes('all') && alone.length < siblings.length) pairs.push([chain, 'all']);
  }
  if (scope.chains.includes('all') && takes('all') && !(chain === 'all' && platform === 'all'))
    pairs.push(['all', 'all']);
  for (const c of scope.chains) if (c !== chain && c !== 'all') pairs.push([c, platformFor(c, scope)]);
  return pairs.slice(0, 3).map(([c, p]) => `${tool} with chain ${c}, platform ${p}`);
}

/** The hint that proposes analyze_botting for one token on `platform`, or says why it cannot. */
export function bottingHint(platform: unknown): string {
  if (platform === 'platform_a' || platform === 'platform_b')
    return `analyze_botting${scopeHint(PLATFORM_CHAIN[platform], platform)} to check its viewer counts`;
  if (platform === 'platform_c') return 'botting analysis does not cover platform_c tokens';
  return "analyze_botting with the token's own chain and platform to check its viewer counts";
}

export const pick = <T, K extends keyof T>(o: T, ...keys: K[]) =>
  Object.fromEntries(keys.map((k) => [k, o[k]])) as Pick<T, K>;

/** A table column (format/columns.ts): its text header and cell, its JSON field and value (default: the field's). */
export const col = <R>(
  header: string,
  text: (row: R, index: number) => string,
  [key, json]: [string, ((row: R) => unknown)?],
  align?: 'right',
): Field<R> => ({ key, header, text, ...(json ? { json } : {}), ...(align ? { align } : {}) });

export const jsonOnly = <R>([key, json]: [string, (row: R) => unknown]): Field<R> => ({
  key,
  header: key,
  text: () => '',
  json,
  textless: true,
});
