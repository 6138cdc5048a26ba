// The MCP Apps view as one self-contained page: view/main.ts (with the App SDK and uPlot) bundled and
// minified, inlined with the styles into view/index.html. `npm run build` writes it beside the server.
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, type Plugin } from 'esbuild';

const root = fileURLToPath(new URL(import.meta.url.includes('/dist/') ? '../..' : '..', import.meta.url));

/**
 * Zod re-exports all of its 50 message locales as a namespace, and the App SDK's `import * as z` keeps the
 * namespace whole: some 250 KiB of error messages in languages the view never shows. English only.
 */
export const englishOnly: Plugin = {
  name: 'zod-english-only',
  setup(b) {
    b.onResolve({ filter: /\/locales\/index\.js$/ }, (args) =>
      args.importer.includes(`${join('node_modules', 'zod')}`)
        ? { path: join(args.resolveDir, '../locales/en.js'), namespace: 'zod-locales' }
        : undefined,
    );
    b.onLoad({ filter: /.*/, namespace: 'zod-locales' }, (args) => ({
      contents: `export { default as en } from ${JSON.stringify(args.path)};`,
      resolveDir: dirname(args.path),
    }));
  },
};

/** The client's browser shims without their JSON Schema validator (scripts/bundle/view-shims.ts). */
export const noValidator: Plugin = {
  name: 'view-without-validator',
  setup(b) {
    b.onResolve({ filter: /^@modelcontextprotocol\/client\/_shims$/ }, () => ({
      path: join(root, 'scripts/bundle/view-shims.ts'),
    }));
  },
};

/** Browser code bundled into one ES module, ready to sit inside an inline <script> of a page. */
export async function inlineScript(entry: string, options: { minify?: boolean; plugins?: Plugin[] } = {}) {
  const out = await build({
    entryPoints: [entry],
    bundle: true,
    write: false,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    minify: options.minify ?? false,
    legalComments: 'none',
    logLevel: 'warning',
    plugins: options.plugins ?? [],
  });
  // Inside an inline <script>, "</script" would end it early.
  return (out.outputFiles[0]?.text ?? '').replaceAll('</script', '<\\/script');
}

export async function buildView(): Promise<string> {
  const script = await inlineScript(join(root, 'view/main.ts'), {
    minify: true,
    plugins: [englishOnly, noValidator],
  });
  const styles = [
    'node_modules/uplot/dist/uPlot.min.css',
    'view/style.css',
    'view/board.css',
    'view/charts.css',
    'view/history.css',
  ]
    .map((f) => join(root, f))
    .map((f) => readFileSync(f, 'utf8'))
    .join('\n');
  return readFileSync(join(root, 'view/index.html'), 'utf8')
    .replace('/*STYLES*/', () => styles)
    .replace('/*SCRIPT*/', () => script);
}
