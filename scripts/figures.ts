// The figures the README and docs state about the build, measured from it. Each is written in the Markdown
// between `<!-- fig:NAME -->` and `<!-- /fig -->` (invisible when rendered); `npm run figures` (after a
// build) rewrites them from the measurement, and test/docs.test.ts fails on any that no longer holds.
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(
  new URL(import.meta.url.includes('/dist/') ? '../..' : '..', import.meta.url),
);

/** The Markdown a reader gets: the README, CONTRIBUTING.md and every page under docs/. */
export function docFiles(root = ROOT): string[] {
  const docs = readdirSync(join(root, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => join('docs', f));
  return ['README.md', 'CONTRIBUTING.md', ...docs];
}

const grouped = (n: number) => n.toLocaleString('en-US');

/** Each figure's name and how it is measured (from the build in dist/, or the package's own files). */
export const FIGURES: Record<string, (root: string) => string> = {
  /** The MCP Apps page the server serves, as built. */
  'view-page-bytes': (root) => grouped(statSync(join(root, 'dist/server/views.html')).size),
  /** The minimum Node, from package.json's engines. */
  'node-min': (root) => {
    const engines = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).engines?.node ?? '';
    return /(\d+(?:\.\d+)*)/.exec(engines)?.[1] ?? engines;
  },
  // Instruction ratios against their floors, as bench/count.ts counted them (bench/instructions-results.json).
  ...instructionFigures(),
};

/** `instructions-{before,after,node24}-{cold,call,first}`: a ratio from the recorded counts, or `not counted`. */
function instructionFigures(): Record<string, (root: string) => string> {
  const out: Record<string, (root: string) => string> = {};
  const parts = {
    cold: ['coldStart', 'xBareServer'],
    call: ['perCall', 'xBareTool'],
    first: ['firstCall', 'xBareTool'],
  };
  for (const side of ['before', 'after', 'node24'])
    for (const [short, [section = '', field = '']] of Object.entries(parts))
      out[`instructions-${side}-${short}`] = (root) => {
        const counts = JSON.parse(readFileSync(join(root, 'bench/instructions-results.json'), 'utf8'));
        const x = counts[side]?.[section]?.[field];
        return typeof x === 'number' ? `${x}x` : 'not counted';
      };
  return out;
}

export const FIGURE = /<!-- fig:([\w-]+) -->([\s\S]*?)<!-- \/fig -->/g;

/** Every figure stated in the docs: where, which, what it says, and what the build measures. */
export function statedFigures(root = ROOT) {
  const out: Array<{ file: string; name: string; stated: string; measured: string | undefined }> = [];
  for (const file of docFiles(root)) {
    const text = readFileSync(join(root, file), 'utf8');
    for (const m of text.matchAll(FIGURE)) {
      const [, name = '', stated = ''] = m;
      out.push({ file, name, stated, measured: FIGURES[name]?.(root) });
    }
  }
  return out;
}

/** Writes every figure from its measurement; returns the files changed. */
export function rewriteFigures(root = ROOT): string[] {
  const changed: string[] = [];
  for (const file of docFiles(root)) {
    const path = join(root, file);
    const text = readFileSync(path, 'utf8');
    const next = text.replace(FIGURE, (whole, name: string) => {
      const measure = FIGURES[name];
      return measure ? `<!-- fig:${name} -->${measure(root)}<!-- /fig -->` : whole;
    });
    if (next !== text) {
      writeFileSync(path, next);
      changed.push(file);
    }
  }
  return changed;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const changed = rewriteFigures();
  console.log(changed.length ? `Figures rewritten in ${changed.join(', ')}` : 'Every figure holds.');
}
