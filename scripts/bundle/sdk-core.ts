// The SDK's package entry (dist/index.mjs) re-exports its internal files and also defines what only an HTTP
// server uses (the Streamable HTTP transport, createMcpHandler, the request-state codec). esbuild splits by
// file: a file reached from the stdio start and from the `--http` chunk goes whole into a chunk both load,
// so importing `Server` through the entry loaded the HTTP transport at every stdio start. This plugin hands
// every importer outside src/transports/http* a stand-in entry that re-exports the same names straight from
// the internal files; only the HTTP transport's files reach dist/index.mjs itself. A name the stand-in does
// not have (one the entry defines itself) fails the build, never the start.
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { Plugin } from 'esbuild';

const SDK = /^@modelcontextprotocol\/server$/;
const NAMESPACE = 'sdk-core';

/** `export { alias as Name } from "<internal file>"` for every name the entry re-exports unchanged. */
export function sdkCoreSource(entry: string): string {
  const code = readFileSync(entry, 'utf8');
  const exported = new Set(
    [...code.matchAll(/^export\s*\{([^}]*)\}\s*;?\s*$/gm)].flatMap(([, names]) =>
      (names as string).split(',').map((n) => n.trim()),
    ),
  );
  const lines: string[] = [];
  for (const [, names, from] of code.matchAll(/^import\s*\{([^}]*)\}\s*from\s*"(\.\/[^"]+)";?\s*$/gm)) {
    const pairs = (names as string)
      .split(',')
      .map((n) => n.trim().split(/\s+as\s+/))
      .filter(([, local]) => local !== undefined && exported.has(local))
      .map(([alias, local]) => `${alias} as ${local}`);
    if (pairs.length)
      lines.push(
        `export { ${pairs.join(', ')} } from ${JSON.stringify(join(dirname(entry), from as string))};`,
      );
  }
  if (!lines.length) throw new Error(`sdk-core: no re-exports found in ${entry}`);
  return `${lines.join('\n')}\n`;
}

export const sdkCore = (root: string): Plugin => ({
  name: NAMESPACE,
  setup(b) {
    b.onResolve({ filter: SDK }, (args) =>
      /[\\/]src[\\/]transports[\\/]http/.test(args.importer)
        ? undefined
        : { path: 'index', namespace: NAMESPACE, pluginData: args.resolveDir },
    );
    b.onLoad({ filter: /.*/, namespace: NAMESPACE }, async () => {
      const found = await b.resolve('@modelcontextprotocol/server', {
        kind: 'import-statement',
        resolveDir: root,
        importer: join(root, 'src/transports/http.ts'),
      });
      if (found.errors.length) return { errors: found.errors };
      return { contents: sdkCoreSource(found.path), loader: 'js', resolveDir: dirname(found.path) };
    });
  },
});
