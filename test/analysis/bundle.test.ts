// The engine as `npm run build` ships it: the worker and the QuickJS WebAssembly beside the bundle, and
// none of it loaded when the server starts (the cold start must not change).
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { loadedAtStart } from '../../scripts/pack.js';
import { WASM_FILE, WORKER_FILE } from '../../src/analysis/pool.js';

const server = fileURLToPath(new URL('../../dist/server/', import.meta.url));

describe('the engine in the bundle', () => {
  it('ships the worker as one file of its own, and the WebAssembly beside it', () => {
    const wasm = readFileSync(join(server, WASM_FILE));
    expect(wasm.subarray(0, 4)).toEqual(Buffer.from([0, 0x61, 0x73, 0x6d]));
    const worker = readFileSync(join(server, WORKER_FILE), 'utf8');
    // Self-contained: it imports node: modules only, never a chunk of the server.
    const imports = [...worker.matchAll(/(?:from|import)\s*\(?\s*["']([^"']+)["']/g)].map((m) => m[1]);
    expect(imports.every((name) => name?.startsWith('node:'))).toBe(true);
    expect(statSync(join(server, WORKER_FILE)).size).toBeLessThan(200 * 1024);
  });

  it('loads none of it at start: not the worker, the WebAssembly, QuickJS or the guest prelude', () => {
    const files = new Set<string>();
    loadedAtStart(join(server, 'index.js'), files);
    expect(files.size).toBeGreaterThan(1);
    for (const file of files) {
      const code = readFileSync(file, 'utf8');
      expect(code, file).not.toContain(WASM_FILE);
      expect(code, file).not.toContain(WORKER_FILE);
      // (package.json, bundled for the version, names the dependency: the code is what must be absent.)
      expect(code, file).not.toMatch(/QTS_|newQuickJSWASMModule|hostCall|worker_threads/);
    }
    // Whatever of the engine the server holds is in a chunk of its own, loaded on the first run.
    const lazy = readdirSync(join(server, 'chunks')).filter((f) =>
      readFileSync(join(server, 'chunks', f), 'utf8').includes(WORKER_FILE),
    );
    for (const chunk of lazy) {
      expect(files).not.toContain(join(server, 'chunks', chunk));
      // It finds the worker beside the bundle, one folder up (scripts/pack.ts sets __ANALYSIS_DIR__).
      expect(readFileSync(join(server, 'chunks', chunk), 'utf8')).toContain('"../"');
      expect(statSync(join(server, 'chunks', '..', WORKER_FILE)).isFile()).toBe(true);
    }
  });
});
