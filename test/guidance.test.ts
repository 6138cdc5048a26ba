// What guides the assistant: initialize instructions, prompts, and the reference resource.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TOOLS } from '../src/tools/index.js';
import { describeAllowed } from '../src/tools/tool.js';
import { connect, type Harness } from './helpers.js';

let h: Harness;
const textOf = (result: { messages: Array<{ content: { type: string; text?: string } }> }) =>
  result.messages[0]?.content.text ?? '';
beforeAll(async () => {
  h = await connect(undefined);
});
afterAll(() => h.close());

describe('instructions', () => {
  it('say in a few lines which tool answers which question', () => {
    const text = h.client.getInstructions() ?? '';
    expect(text.split('\n').length).toBeLessThanOrEqual(6);
    for (const tool of ['investigate_botting', 'analyze_botting', 'get_streamer_core', 'check_health'])
      expect(text).toContain(tool);
    expect(text).toContain('streamer-analytics://reference');
  });
});

describe('prompts', () => {
  it('lists investigate_botting and streamer_report with their arguments', async () => {
    const { prompts } = await h.client.listPrompts();
    expect(prompts.map((p) => [p.name, p.arguments?.map((a) => [a.name, a.required])])).toEqual([
      [
        'investigate_botting',
        [
          ['mintIds', true],
          ['hours', false],
        ],
      ],
      ['streamer_report', [['mint', true]]],
    ]);
  });

  it('investigate_botting takes pasted ids and the hours, and guides through the tools', async () => {
    const result = await h.client.getPrompt({
      name: 'investigate_botting',
      arguments: { mintIds: 'AAA, BBB\nCCC  DDD', hours: '48' },
    });
    const text = textOf(result);
    expect(result.messages[0]?.role).toBe('user');
    expect(text).toContain('AAA, BBB, CCC, DDD');
    expect(text).toContain('Call investigate_botting with all of them as mintIds and hours 48');
    expect(text).toContain('get_streamer_sessions');
  });

  it('streamer_report names the tools for one token', async () => {
    const result = await h.client.getPrompt({ name: 'streamer_report', arguments: { mint: 'MINT123' } });
    const text = textOf(result);
    for (const tool of ['get_streamer_core', 'get_streamer_sessions', 'analyze_botting', 'get_creator_fees'])
      expect(text).toContain(tool);
    expect(text).toContain('MINT123');
  });

  it('refuses a missing required argument, naming it', async () => {
    await expect(h.client.getPrompt({ name: 'streamer_report', arguments: {} })).rejects.toThrow(
      /needs the argument mint/,
    );
    await expect(h.client.getPrompt({ name: 'nope', arguments: {} })).rejects.toThrow(/Unknown prompt/);
  });
});

describe('the reference resource', () => {
  it('is listed and readable as Markdown', async () => {
    const { resources } = await h.client.listResources();
    expect(resources.map((r) => r.uri)).toEqual(['streamer-analytics://reference']);
    const { contents } = await h.client.readResource({ uri: 'streamer-analytics://reference' });
    expect(contents[0]?.mimeType).toBe('text/markdown');
  });

  it('states every tool and every parameter limit exactly as the schemas do', async () => {
    const { contents } = await h.client.readResource({ uri: 'streamer-analytics://reference' });
    const text = (contents[0] as { text: string }).text;
    for (const tool of TOOLS) {
      const entry = tool.entry();
      expect(text).toContain(`### ${entry.name}: ${entry.title}`);
      for (const [name, prop] of Object.entries(
        entry.inputSchema.properties as Record<string, Record<string, unknown>>,
      )) {
        expect(text).toContain(`- ${name}`);
        expect(text).toContain(describeAllowed(prop));
      }
    }
    expect(text).toContain(
      '- mintIds (required): a list of 1 to 500 items, each a string of 32 to 44 characters',
    );
    expect(text).toContain('platform_b belongs to chain_b');
    expect(text).toContain('| Are these tokens botted? Which flagged ones are live? |');
  });

  it('refuses an unknown uri', async () => {
    await expect(h.client.readResource({ uri: 'streamer-analytics://nope' })).rejects.toThrow(
      /Unknown resource/,
    );
  });
});
