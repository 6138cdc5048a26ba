// The layout issue 33 set, held: data flows one way (api/ below format/ and tools/; transports take only
// types from tools/), the views draw what the report says (no level rule of their own), and no source file
// grows past 400 lines.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
/** The .ts files under `dir` (relative to the root), as the recursive read of node:fs lists them. */
const files = (dir: string): string[] =>
  readdirSync(join(ROOT, dir), { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.ts'))
    .map((f) => join(dir, f));
const source = (file: string) => readFileSync(join(ROOT, file), 'utf8');
/** The code without its comments (line and block), for rules about code. */
const code = (text: string) => text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"`\\])\/\/.*$/gm, '$1');
const imports = (text: string) =>
  [...text.matchAll(/^(import|export)\s+(type\s+)?[^;]*?from\s+'([^']+)'/gm)].map((m) => ({
    typeOnly: m[2] !== undefined,
    from: m[3] ?? '',
  }));

describe('the layout', () => {
  const all = [...files('src'), ...files('view')];

  it('no file in src/ or view/ is longer than 400 lines', () => {
    const long = all.map((f) => [f, source(f).split('\n').length - 1] as const).filter(([, n]) => n > 400);
    expect(long).toEqual([]);
  });

  it('src/api/ imports nothing from src/format/ or src/tools/', () => {
    const wrong = files('src/api').flatMap((f) =>
      imports(source(f))
        .filter((i) => /^\.\.\/(format|tools)\//.test(i.from))
        .map((i) => `${f}: ${i.from}`),
    );
    expect(wrong).toEqual([]);
  });

  it('src/transports/ takes only types from src/tools/', () => {
    const wrong = files('src/transports').flatMap((f) =>
      imports(source(f))
        .filter((i) => /\/tools\//.test(i.from) && !i.typeOnly)
        .map((i) => `${f}: ${i.from}`),
    );
    expect(wrong).toEqual([]);
  });

  it('view/ holds no level rule: no level name outside comments', () => {
    const wrong = files('view').filter((f) => /\b(CRITICAL|HIGH|MEDIUM|LOW)\b/.test(code(source(f))));
    expect(wrong).toEqual([]);
  });
});
