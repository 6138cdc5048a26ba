// Token budgets (sizes, not times): a change that bloats what the assistant pays for fails here.
import { encode } from 'gpt-tokenizer/encoding/o200k_base';
import { describe, expect, it } from 'vitest';
import { TOOLS } from '../../src/tools/index.js';

const tokens = (value: unknown) => encode(typeof value === 'string' ? value : JSON.stringify(value)).length;

describe('tools/list token budget (o200k_base)', () => {
  const entries = TOOLS.map((t) => t.entry());
  const forModel = entries.map(({ outputSchema: _, ...rest }) => rest);

  it('costs at most 2,200 tokens for names, titles, descriptions, input schemas and annotations', () => {
    const total = tokens(forModel);
    console.log(
      `tools/list: ${total} tokens without output schemas, ${tokens(entries)} with; ${JSON.stringify(entries).length} bytes`,
    );
    expect(total).toBeLessThanOrEqual(2_200);
  });
});
