// A hostile or broken upstream, through the real server and the simulator: the key it echoes never
// reaches a result or a log line, whatever its encoding; its bytes are cleaned or described; its values
// stay data; a pathological body is an invalid response, never an internal error.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { APPS_CAPABILITIES } from '../../scripts/host/harness.js';
import { createLogger } from '../../src/log.js';
import { type Simulator, startSimulator } from '../../src/simulator/server.js';
import { fold } from '../../src/untrusted/text.js';
import { call, connect, DIALECT, type Harness, ids, sc } from '../helpers.js';

// A realistic key, with a slash so that JSON may escape it as `\/`.
const KEY = 'sk/live-9f8e7d6c5b4a3f2e';
const jsonEscaped = (s: string) =>
  [...s].map((c) => (c === '/' ? '\\/' : `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)).join('');

let sim: Simulator;
let h: Harness;
let apps: Harness;
const logs: string[] = [];

beforeAll(async () => {
  sim = await startSimulator({ apiKey: KEY, dialect: DIALECT });
  const logger = createLogger('debug', [KEY], (line) => logs.push(line));
  h = await connect(sim, { logger });
  apps = await connect(sim, { logger, capabilities: APPS_CAPABILITIES });
});
beforeEach(() => {
  sim.reset();
  logs.length = 0;
});
afterAll(async () => {
  await h.close();
  await apps.close();
  await sim.close();
});

const mint = () => ids(sim, 'platform_a', 1)[0] as string;
const everything = (out: { text: string; structured: unknown }) =>
  `${out.text}\n${JSON.stringify(out.structured ?? null)}\n${logs.join('')}`;

describe('an echoed key', () => {
  const forms = {
    'JSON-escaped': jsonEscaped(KEY),
    'with escaped slashes': KEY.replace('/', '\\/'),
    'glued to other characters': `key=xx${KEY}yy`,
    'escaped and glued': `token:${jsonEscaped(KEY)}.end`,
  };
  for (const [name, form] of Object.entries(forms)) {
    it(`${name}: not in a result, nor in a log line`, async () => {
      sim.inject({ raw: `{"success":true,"data":{"mintId":"${mint()}","coinName":"${form}","${form}":1}}` });
      const ok = await call(h.client, 'get_streamer_core', { mint: mint(), response_format: 'detailed' });
      expect(ok.isError).toBe(false);
      expect(everything(ok)).not.toContain(KEY);
      expect(ok.text).toContain('[redacted]');

      sim.inject({ raw: `{"success":false,"error":"bad key ${form}"}`, status: 401 });
      const refused = await call(h.client, 'get_streamer_core', { mint: mint() });
      expect(refused.text).toContain('[error: auth · final]');
      expect(everything(refused)).not.toContain(KEY);

      sim.inject({ raw: `upstream says ${form} went wrong`, status: 200, contentType: 'text/plain' });
      const invalid = await call(h.client, 'get_streamer_core', { mint: mint() });
      expect(invalid.text).toContain('[error: invalid_response · final]');
      expect(invalid.text).toContain('[redacted]');
      expect(everything(invalid)).not.toContain(KEY);
    });
  }
});

describe('a key disguised by characters that cleaning removes', () => {
  // Each form would become the key again once cleaned, so redaction must see through it.
  const disguises = {
    'zero-width space': '\u200b',
    'soft hyphen': '\u00ad',
    'control character': '\u0007',
    'ANSI escape': '\u001b[31m',
    'bidi override': '\u202e',
    'left-to-right mark': '\u200e',
    'tag character': '\u{e0041}\u{e007f}',
    'variation selector': '\ufe0f',
    'supplementary variation selector': '\u{e0100}',
  };
  const forms: Record<string, string> = {
    ...Object.fromEntries(
      Object.entries(disguises).map(([name, mark]) => [name, `${KEY.slice(0, 7)}${mark}${KEY.slice(7)}`]),
    ),
    // Compatibility forms read as the key: fullwidth letters, digits and solidus.
    'fullwidth letters': KEY.replace('l', '\uff4c').replace('9', '\uff19'),
    'fullwidth solidus and letter': `\uff53k\uff0flive-9f8e7d6c5b4a3f2e`,
  };
  /** Every string in these values, as cleaning would leave it and a reader take it: none may hold the key. */
  const shown = (...values: unknown[]) => {
    const strings: string[] = [];
    const walk = (v: unknown): void => {
      if (typeof v === 'string') strings.push(fold(v).normalize('NFKC'));
      else if (Array.isArray(v)) v.forEach(walk);
      else if (v && typeof v === 'object') for (const [k, x] of Object.entries(v)) walk([k, x]);
    };
    values.forEach(walk);
    walk(logs.map((line) => JSON.parse(line)));
    return strings.join('\n');
  };
  const inJson = (s: string) => JSON.stringify(s).slice(1, -1);
  for (const [name, disguised] of Object.entries(forms)) {
    it(`${name}: not in text, structuredContent, _meta, an error or a log line`, async () => {
      sim.inject({ raw: `{"success":true,"data":{"mintId":"${mint()}","coinName":"${inJson(disguised)}"}}` });
      const ok = await call(h.client, 'get_streamer_core', { mint: mint(), response_format: 'detailed' });
      expect(ok.isError).toBe(false);
      expect(ok.text).toContain('[redacted]');
      expect(shown(ok.text, ok.structured)).not.toContain(KEY);

      sim.inject({ raw: `{"success":false,"error":"bad key ${inJson(disguised)}"}`, status: 400 });
      const refused = await call(h.client, 'get_streamer_core', { mint: mint() });
      expect(refused.text).toContain('[error: api_error · final]');
      expect(shown(refused.text, refused.structured)).not.toContain(KEY);

      const mintIds = ids(sim, 'platform_a', 2);
      sim.injectFor(/botting/, {
        status: 200,
        body: {
          success: true,
          data: {
            results: mintIds.map((mintId) => ({
              mintId,
              confidenceLevel: 'HIGH',
              confidence: 0.9,
              score: 80,
              reasons: [`echo ${disguised}`],
            })),
            errors: [],
            summary: {},
          },
        },
      });
      const board = await apps.client.callTool({ name: 'analyze_botting', arguments: { mintIds } });
      expect(JSON.stringify(board._meta)).toContain('[redacted]');
      expect(shown(board)).not.toContain(KEY);
    });
  }

  it('a Content-Type that carries the key, plain or disguised, is quoted redacted', async () => {
    for (const contentType of [
      `text/plain; token=${KEY}`,
      `text/plain; token=${KEY.slice(0, 5)}\u00ad${KEY.slice(5)}`,
    ]) {
      sim.inject({ raw: 'not json', contentType });
      const out = await call(h.client, 'get_streamer_core', { mint: mint() });
      expect(out.text).toContain('Content-Type "text/plain; token=[redacted]"');
      expect(shown(out.text, out.structured)).not.toContain(KEY);
    }
  });
});

describe('bytes that are not the expected JSON', () => {
  it('quotes text cleaned of controls, direction marks and line breaks, and the Content-Type too', async () => {
    sim.inject({
      raw: 'oops\u0007 \u202eevil\u202c\nnext line\u200b here',
      contentType: 'text/plain\u0085injected\u009b31m',
    });
    const out = await call(h.client, 'get_streamer_core', { mint: mint() });
    expect(out.text).toContain('got "oops evil next line here", Content-Type "text/plain injected31m"');
    expect(out.text).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u200b\u202a-\u202e]/);
    expect(out.text.split('\n')).toHaveLength(3);
  });

  it('shows binary data as such, by its size', async () => {
    sim.inject({ raw: '\u0000\u0001\u0002PNG\u0000\u0000\u00ff', contentType: 'application/octet-stream' });
    const out = await call(h.client, 'get_streamer_core', { mint: mint() });
    expect(out.text).toMatch(/got binary data \(\d+ bytes\), Content-Type "application\/octet-stream"/);
    sim.inject({ raw: '\u0000\u0001binary', status: 503 });
    sim.inject({ raw: '\u0000\u0001binary', status: 503 });
    sim.inject({ raw: '\u0000\u0001binary', status: 503 });
    const failed = await call(h.client, 'check_health');
    expect(failed.text).toMatch(/HTTP 503\) after 3 attempts: binary data \(8 bytes\)\./);
  });
});

describe('pathological bodies', () => {
  const cases = {
    'nested 100,000 deep': `{"success":true,"data":${'['.repeat(100_000)}${']'.repeat(100_000)}}`,
    'nested 100,000 deep in an error': `{"error":${'{"error":'.repeat(100_000)}"x"${'}'.repeat(100_000)}}`,
    '400,000 keys': `{"success":true,"data":{${Array.from({ length: 400_000 }, (_, i) => `"k${i}":1`).join(',')}}}`,
  };
  for (const [name, raw] of Object.entries(cases)) {
    it(`${name}: an invalid response, not an internal error`, async () => {
      const status = name.includes('error') ? 500 : 200;
      sim.inject(...[1, 2, 3].map(() => ({ raw, status })));
      const out = await call(h.client, 'get_streamer_core', { mint: mint(), response_format: 'detailed' });
      expect(out.isError).toBe(true);
      expect(out.text).not.toContain('internal');
      expect(out.text).toMatch(
        name.includes('error') ? /\[error: upstream_error/ : /response (nested too deep|too many fields)/,
      );
    });
  }
});

describe('upstream values used as keys', () => {
  it('confidence levels named like Object members are counted as data', async () => {
    const mintIds = ids(sim, 'platform_a', 4);
    const levels = ['constructor', '__proto__', 'toString', 'constructor'];
    const body = {
      success: true,
      data: {
        results: mintIds.map((mintId, i) => ({
          mintId,
          confidenceLevel: levels[i],
          confidence: 0.5,
          score: 10 + i,
          reasons: [],
        })),
        errors: [],
        summary: {},
      },
    };
    for (const tool of ['analyze_botting', 'investigate_botting']) {
      sim.injectFor(/botting/, { status: 200, body });
      const out = await call(h.client, tool, { mintIds });
      expect(out.text).toContain('constructor 2');
      expect(out.text).toContain('__proto__ 1');
      expect(out.text).toContain('toString 1');
      expect(out.text).not.toMatch(/function|native code|\[object/);
      const byLevel = (sc(out).counts as { byLevel: Record<string, number> }).byLevel;
      expect(JSON.parse(JSON.stringify(byLevel))).toEqual(
        JSON.parse('{"constructor":2,"__proto__":1,"toString":1}'),
      );
    }
  });
});
