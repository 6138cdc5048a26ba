import { describe, expect, it } from 'vitest';
import { TOOLS } from '../../src/tools/index.js';
import { COMPOSITE, LIMITS, type Param } from './limits.js';

const entries = TOOLS.map((t) => t.entry());
const WRITES_HISTORY = ['watchlist', 'check_watchlist'];
type Prop = Record<string, unknown> & { items?: Record<string, unknown> };

function expected(p: Param): Record<string, unknown> {
  switch (p.kind) {
    case 'ids':
      return {
        type: 'array',
        minItems: p.min,
        maxItems: p.max,
        items: { type: 'string', minLength: 32, maxLength: 44 },
      };
    case 'id':
      return { type: 'string', minLength: 32, maxLength: 44 };
    case 'int':
      return { type: 'integer', minimum: p.min, maximum: p.max, default: p.default };
    case 'enum':
      return { type: 'string', enum: p.values, default: p.default };
    case 'bool':
      return { type: 'boolean', default: p.default };
    case 'code':
      return { type: 'string', maxLength: p.max };
    case 'text':
      return { type: 'string', minLength: p.min, maxLength: p.max };
    case 'someIds':
      return {
        type: 'array',
        minItems: p.min,
        maxItems: p.max,
        items: { type: 'string', minLength: 32, maxLength: 44 },
      };
    case 'strings':
      return {
        type: 'array',
        minItems: p.min,
        maxItems: p.max,
        items: { type: 'string', minLength: 1, maxLength: p.itemMax },
      };
  }
}

describe('tool schemas hold exactly the documented limits', () => {
  it('offers the ten endpoint tools of the contract, in order, then the composite ones', () => {
    expect(entries.map((e) => e.name)).toEqual([...Object.keys(LIMITS), ...Object.keys(COMPOSITE)]);
  });

  for (const entry of entries) {
    const limits = LIMITS[entry.name] ?? { params: COMPOSITE[entry.name] ?? {} };
    it(`${entry.name}: parameters, bounds, defaults and enums`, () => {
      expect(limits).toBeDefined();
      const props = entry.inputSchema.properties as Record<string, Prop>;
      expect(Object.keys(props).sort()).toEqual(Object.keys(limits?.params ?? {}).sort());
      for (const [name, param] of Object.entries(limits?.params ?? {})) {
        const prop = props[name] as Prop;
        const want = expected(param);
        const got: Record<string, unknown> = {};
        for (const key of Object.keys(want)) got[key] = prop[key];
        expect(got, name).toEqual(want);
      }
      const required = Object.entries(limits?.params ?? {})
        .filter(([, p]) => 'required' in p)
        .map(([n]) => n);
      expect((entry.inputSchema.required as string[] | undefined) ?? []).toEqual(required);
      expect(entry.inputSchema.additionalProperties).toBe(false);
    });
  }

  it('gives platform no default anywhere, since it follows the chain', () => {
    for (const entry of entries) {
      const props = entry.inputSchema.properties as Record<string, Prop>;
      if (props.platform) expect(props.platform.default, entry.name).toBeUndefined();
    }
  });

  it('matches the reviewed snapshot of every tools/list entry', async () => {
    await expect(`${JSON.stringify(entries, null, 2)}\n`).toMatchFileSnapshot(
      '__snapshots__/tools-list.json',
    );
  });

  it('is what the bundle answers with: the entries computed at build time (scripts/pack.ts) are these', async () => {
    const { toolEntries } = await import('../../scripts/pack.js');
    const built = await toolEntries();
    expect(JSON.stringify(built.tools)).toBe(JSON.stringify(entries));
    // Through JSON text and back, as the bundle carries them (src/tools/entries.ts).
    expect(JSON.stringify(JSON.parse(JSON.stringify(built)).tools, null, 2)).toBe(
      JSON.stringify(entries, null, 2),
    );
  });
});

describe('rules every tool keeps', () => {
  it('has unique snake_case names', () => {
    const names = entries.map((e) => e.name);
    expect(new Set(names).size).toBe(names.length);
    for (const name of names) expect(name).toMatch(/^[a-z][a-z_]*[a-z]$/);
  });

  for (const entry of entries) {
    it(`${entry.name}: title, description, four hints, described fields, output schema`, () => {
      expect(entry.title.length).toBeGreaterThan(3);
      expect(entry.description.length).toBeGreaterThan(60);
      // run_analysis's description is its api's declarations (held to its token budget in tokens.test.ts).
      expect(entry.description.length).toBeLessThan(entry.name === 'run_analysis' ? 4_000 : 260);
      // The history tools that change the store (a watchlist, a check's result) say so; none destroys data
      // the caller did not name.
      expect(entry.annotations).toMatchObject(
        WRITES_HISTORY.includes(entry.name)
          ? { readOnlyHint: false, destructiveHint: false, idempotentHint: false }
          : { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: true },
      );
      for (const [name, prop] of Object.entries(entry.inputSchema.properties as Record<string, Prop>)) {
        // Either a description or a self-explaining enum: every field tells the model what it takes.
        expect(prop.description !== undefined || prop.enum !== undefined, `${entry.name}.${name}`).toBe(true);
      }
      expect(entry.outputSchema.type).toBe('object');
      expect(entry.outputSchema.required).toEqual(['summary']);
    });
  }

  it('explains the chain/platform rule in every platform field', () => {
    for (const entry of entries) {
      const platform = (entry.inputSchema.properties as Record<string, Prop>).platform;
      if (platform)
        expect(String(platform.description), entry.name).toMatch(
          /^Must belong to chain; omitted: chain_a:platform_a, chain_b:/,
        );
    }
  });
});
