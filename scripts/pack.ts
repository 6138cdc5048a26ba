// `npm run pack`: builds the Claude Desktop bundle (.mcpb). The server is bundled into one file with esbuild
// (no node_modules to ship, fewer files to load at start), staged with only what must ship, and packed
// with the official mcpb CLI. Prints the bundle's size.
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, type Plugin } from 'esbuild';
import type { PrebuiltEntries, PrebuiltInstructions } from '../src/tools/entries.js';
import { builtinsAsObjects } from './bundle/builtins.js';
import { sdkCore } from './bundle/sdk-core.js';
import { buildView } from './view.js';

// Run compiled from dist/scripts, or imported as source (by the tests) from scripts.
const root = fileURLToPath(new URL(import.meta.url.includes('/dist/') ? '../..' : '..', import.meta.url));
const manifest = JSON.parse(readFileSync(join(root, 'manifest.json'), 'utf8')) as {
  name: string;
  version: string;
  server: { entry_point: string };
  icon?: string;
};

/** Replaces the SDK's Node shims (which import Ajv) with a stub (see scripts/bundle/shims.ts). */
const withoutAjv: Plugin = {
  name: 'without-ajv',
  setup(b) {
    b.onResolve({ filter: /^@modelcontextprotocol\/server\/_shims$/ }, () => ({
      path: join(root, 'scripts/bundle/shims.ts'),
    }));
  },
};

/**
 * Bundles the server into `<dir>/<entry_point>` and returns that path. The entry is src/start.ts (the
 * compile cache on, then the server: src/main.ts, a chunk of its own). What stdio mode does not need at
 * start (undici until the first request, the HTTP transport, the simulator) is split into chunks beside
 * it and loaded on first use; a single file had esbuild wrap shared modules in lazy initialisers, which
 * broke zod's initialisation order once a second lazy import shared dependencies with the entry.
 */
export async function bundleServer(dir: string): Promise<string> {
  const outfile = join(dir, manifest.server.entry_point);
  await build({
    entryPoints: { [manifest.server.entry_point.replace(/\.js$/, '')]: join(root, 'src/start.ts') },
    outdir: dir,
    splitting: true,
    chunkNames: 'server/chunks/[name]-[hash]',
    ...NODE_BUNDLE,
    plugins: [withoutAjv, sdkCore(root), builtinsAsObjects(root)],
    define: {
      // Where src/analysis/pool.ts (in server/chunks/) finds the sandbox worker and its WebAssembly.
      __ANALYSIS_DIR__: '"../"',
      // Every tools/list entry, computed now rather than at each start's first tools/list.
      __TOOL_ENTRIES__: JSON.stringify(JSON.stringify(await toolEntries())),
      // The initialize instructions: src/reference.ts (and the endpoint table it reads) stays off the start.
      __INSTRUCTIONS__: JSON.stringify(await instructions()),
    },
  });
  withoutUnusedRequire(outfile);
  await bundleAnalysisWorker(dirname(outfile));
  // The MCP Apps view, read by the server when a client asks for it (src/views.ts).
  writeFileSync(join(dirname(outfile), 'views.html'), await buildView());
  // The bundle is ES modules in .js files: without this, a Node that does not detect module syntax (before
  // 20.19, e.g. the manifest's minimum 20.18.0) reads them as CommonJS and fails at the first import.
  writeFileSync(join(dirname(outfile), 'package.json'), '{ "type": "module" }\n');
  return outfile;
}

/**
 * The banner's `require` (NODE_BUNDLE) taken out of the files loaded before the handshake (the entry, the
 * server's chunk and the chunks they import) where nothing uses it: `createRequire` costs about 1.7M
 * instructions per file. The chunks loaded later keep it: taken out of every file, `get_streamer_core`
 * counted about 240K instructions more per call on Node 24 (1.32-1.34M in three runs against 1.08-1.13M,
 * N = 500 after W = 300), for no reason found in their code, which never reads `require` itself.
 */
function withoutUnusedRequire(entry: string): void {
  const banner = `${NODE_BUNDLE.banner.js}\n`;
  const atStart = new Set<string>();
  loadedAtStart(entry, atStart);
  for (const file of atStart) {
    const code = readFileSync(file, 'utf8');
    const at = code.indexOf(banner);
    if (at < 0) continue;
    const rest = code.slice(0, at) + code.slice(at + banner.length);
    // A use reads `require(`, `require.` or `typeof require` (esbuild's own `__require` helper); the word
    // alone may be text (a tool's description says programs have no `require`).
    if (!/typeof require\b|\brequire\s*[.(]/.test(rest)) writeFileSync(file, rest);
  }
}

/**
 * The tools/list entries the bundle answers with (src/tools/entries.ts), computed by the tools themselves
 * (`entry()`: their zod schemas as JSON Schema), so they are the entries the modules would build at run time.
 */
export async function toolEntries(): Promise<PrebuiltEntries> {
  const [{ TOOLS }, { APP_TOOL }] = await Promise.all([
    import('../src/tools/index.js'),
    import('../src/views.js'),
  ]);
  return { tools: TOOLS.map((t) => t.entry()), appOnly: [...APP_TOOL.values()].map((t) => t.entry()) };
}

/** The initialize instructions, as src/reference.ts writes them. */
async function instructions(): Promise<PrebuiltInstructions> {
  const { INSTRUCTIONS, DEMO_INSTRUCTIONS } = await import('../src/reference.js');
  return { plain: INSTRUCTIONS, demo: DEMO_INSTRUCTIONS };
}

/**
 * The bare SDK server of the bench (bench/noop-server.ts, entered through bench/bare-start.ts) bundled as the
 * server is, into `<dir>/bench/bare/index.js`: the floor its cold start is measured against.
 */
export async function bundleBareServer(dir: string): Promise<string> {
  rmSync(join(dir, 'bench/bare'), { recursive: true, force: true });
  await build({
    entryPoints: { 'bench/bare/index': join(root, 'bench/bare-start.ts') },
    outdir: dir,
    splitting: true,
    chunkNames: 'bench/bare/chunks/[name]-[hash]',
    ...NODE_BUNDLE,
    plugins: [withoutAjv],
  });
  return join(dir, 'bench/bare/index.js');
}

/** How the server and the sandbox worker are both bundled: minified ES modules for Node 22. */
const NODE_BUNDLE = {
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node22',
  minify: true,
  // No keepNames: it costs 7-10 ms of CPU at every start (a name call for each function and class of
  // the SDK and zod). Error classes name themselves with literals instead, so logs still read
  // "name":"ConnectionError", not "name":"y" (test/e2e/bundle.test.ts holds it).
  legalComments: 'none',
  // Dependencies written as CommonJS call require(); give the ES module one.
  banner: {
    js: "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);",
  },
  logLevel: 'warning',
} as const;

/**
 * The run_analysis sandbox worker (src/analysis/worker.ts), one file of its own that only a worker thread
 * loads, and the QuickJS WebAssembly beside it: neither is read until the first program runs.
 */
async function bundleAnalysisWorker(serverDir: string): Promise<void> {
  const { WASM_FILE, WORKER_FILE } = await import('../src/analysis/pool.js');
  await build({
    entryPoints: [join(root, 'src/analysis/worker.ts')],
    outfile: join(serverDir, WORKER_FILE),
    ...NODE_BUNDLE,
  });
  const require = createRequire(import.meta.url);
  copyFileSync(require.resolve('@jitl/quickjs-wasmfile-release-sync/wasm'), join(serverDir, WASM_FILE));
}

async function pack(): Promise<void> {
  const staging = join(root, 'build/bundle');
  rmSync(staging, { recursive: true, force: true });
  mkdirSync(staging, { recursive: true });
  await bundleServer(staging);
  for (const file of ['manifest.json', 'README.md', 'LICENSE', manifest.icon ?? 'icon.png']) {
    copyFileSync(join(root, file), join(staging, file));
  }
  const out = join(root, `${manifest.name}-${manifest.version}.mcpb`);
  rmSync(out, { force: true });
  const mcpb = join(root, 'node_modules/@anthropic-ai/mcpb/dist/cli/cli.js');
  execFileSync(process.execPath, [mcpb, 'pack', staging, out], { stdio: ['ignore', 'ignore', 'inherit'] });
  const kib = (bytes: number) => `${(bytes / 1024).toFixed(0)} KiB`;
  const server = readdirSync(join(staging, 'server'), { recursive: true, withFileTypes: true })
    .filter((f) => f.isFile())
    .reduce((sum, f) => sum + statSync(join(f.parentPath, f.name)).size, 0);
  const atStart = loadedAtStart(join(staging, manifest.server.entry_point));
  console.log(
    `${out}: ${kib(statSync(out).size)} (server ${kib(server)} unpacked, ${kib(atStart)} loaded at start)`,
  );
}

/**
 * Bytes of the entry and every chunk it imports statically, plus the chunk the entry itself imports
 * dynamically (src/start.ts loads the server that way, after turning the compile cache on); the server's
 * own dynamic `import()`s wait until used.
 */
export function loadedAtStart(entry: string, seen = new Set<string>(), isEntry = true): number {
  if (seen.has(entry)) return 0;
  seen.add(entry);
  const code = readFileSync(entry, 'utf8');
  let size = statSync(entry).size;
  const imports = isEntry
    ? /(?:from|import)\s*\(?\s*"(\.{1,2}\/[^"]+)"/g
    : /(?:from|import)\s*"(\.{1,2}\/[^"]+)"/g;
  for (const [, chunk] of code.matchAll(imports)) {
    size += loadedAtStart(join(dirname(entry), chunk as string), seen, false);
  }
  return size;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await pack();
