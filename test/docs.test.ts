// What a newcomer meets first, held to the product: the README's shape, every figure the docs state about
// the build (scripts/figures.ts measures them; `npm run figures` rewrites them), every variable, setting and
// tool named, links that resolve, a demo that fits a screen or two, and no stray files in the repository.

import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { docFiles, ROOT, statedFigures } from '../scripts/figures.js';
import { SHOTS } from '../scripts/shots.js';
import { ENV } from '../src/config.js';
import { TOOLS } from '../src/tools/index.js';

const read = (file: string) => readFileSync(join(ROOT, file), 'utf8');
const readme = read('README.md');
const lines = readme.split('\n');
const everything = docFiles().map(read).join('\n');
/** Pages other parts of the project write; a link to one is checked once it exists. */
const WRITTEN_ELSEWHERE = new Set(['docs/performance.md', 'docs/history.md']);

/** The README's section under a heading, up to the next heading of its level. */
function section(title: string): string {
  const start = lines.findIndex((l) => l === `## ${title}`);
  if (start < 0) throw new Error(`README has no "## ${title}"`);
  const end = lines.findIndex((l, i) => i > start && l.startsWith('## '));
  return lines.slice(start, end < 0 ? undefined : end).join('\n');
}

describe('the README', () => {
  it('is short, opens with its two commands, and installs in Claude Desktop within its first 60 lines', () => {
    expect(lines.length).toBeLessThanOrEqual(220);
    expect(readme).toMatch(
      /^# streamer-analytics-mcp\n\n```sh\nnpm install && npm run demo .*\nnpm test .*\n```/,
    );
    expect(lines.findIndex((l) => l === '## Install in Claude Desktop')).toBeLessThan(60);
    const scripts = JSON.parse(read('package.json')).scripts;
    expect(scripts.demo).toBeDefined();
    expect(scripts.test).toBeDefined();
  });

  it('names every setting of the Claude Desktop bundle in its install section', () => {
    const manifest = JSON.parse(read('manifest.json'));
    const install = section('Install in Claude Desktop');
    for (const setting of Object.values(manifest.user_config) as Array<{ title: string }>)
      expect(install, setting.title).toContain(`**${setting.title}**`);
  });

  it('lists every tool the server has, each with what it is for', () => {
    const tools = section('Tools');
    for (const tool of TOOLS) expect(tools, tool.name).toMatch(new RegExp(`\\| \`${tool.name}\` \\| \\w`));
  });

  it('names every variable the configuration reads, in the README or the docs', () => {
    // The configuration's one table names every variable it reads (--help is written from it too).
    const names = new Set(Object.values(ENV));
    expect(names.size).toBeGreaterThan(10);
    for (const name of names) expect(everything, name).toContain(`\`${name}\``);
    // The bundle's variables are the README's own table.
    const manifest = JSON.parse(read('manifest.json'));
    const config = section('Configuration');
    for (const name of Object.keys(manifest.server.mcp_config.env))
      expect(config, name).toContain(`\`${name}\``);
  });
});

describe('the docs', () => {
  it('state every figure about the build as the build measures it', () => {
    const figures = statedFigures();
    expect(figures.map((f) => f.name)).toEqual(expect.arrayContaining(['node-min', 'view-page-bytes']));
    for (const f of figures) {
      expect(f.measured, `${f.file}: unknown figure ${f.name}`).toBeDefined();
      expect(f.stated, `${f.file}: ${f.name} is stale; run npm run figures`).toBe(f.measured);
    }
  });

  it('state no build size, token count or test count by hand', () => {
    const bare = everything.replace(/<!-- fig:[\w-]+ -->[\s\S]*?<!-- \/fig -->/g, '');
    expect(bare).not.toMatch(/\b\d[\d,.]* (KiB|MiB|bytes)\b[^\n]*\b(bundle|view page|\.mcpb|weighs)/i);
    expect(bare).not.toMatch(/\b\d[\d,]* tests\b|\b\d+ min \d+ s\b/);
  });

  it('refer to nothing the reader does not have', () => {
    for (const file of docFiles()) {
      const text = read(file);
      expect(text, file).not.toMatch(
        /\bissue \d+|\bissues? #\d+|\bthe (original )?brief\b|\bthe document\b/i,
      );
    }
  });

  it('link only to files that exist', () => {
    for (const file of docFiles()) {
      for (const [, target = ''] of read(file).matchAll(/\]\(([^)#\s]+)(?:#[^)]*)?\)/g)) {
        if (/^[a-z]+:/.test(target)) continue;
        const path = join(dirname(file), target);
        if (WRITTEN_ELSEWHERE.has(path) && !existsSync(join(ROOT, path))) continue;
        expect(existsSync(join(ROOT, path)), `${file} links to ${target}`).toBe(true);
      }
    }
  });
});

describe('the screenshots', () => {
  it('show every view at 400 and 960 px, light and dark, in docs/views.md', () => {
    const views = read('docs/views.md');
    expect(SHOTS).toHaveLength(20);
    for (const { file } of SHOTS) {
      expect(views, file).toContain(`](${file})`);
      expect(existsSync(join(ROOT, 'docs', file)), file).toBe(true);
    }
  });
});

describe('the repository', () => {
  it('tracks no pid or log file', () => {
    const tracked = execFileSync('git', ['ls-files'], { cwd: ROOT, encoding: 'utf8' }).split('\n');
    expect(tracked.filter((f) => /\.(pid|log)$/i.test(f))).toEqual([]);
  });
});

describe('npm run demo', () => {
  it('prints at most 150 lines (npm adds 4), each tool briefly and the investigation to its 20th row', () => {
    const out = execFileSync(process.execPath, [join(ROOT, 'dist/scripts/demo.js')], {
      cwd: ROOT,
      encoding: 'utf8',
      timeout: 60_000,
    });
    const printed = out.trimEnd().split('\n');
    expect(printed.length + 4).toBeLessThanOrEqual(150);
    for (const tool of TOOLS) expect(out, tool.name).toContain(`━━ ${tool.name} `);
    expect(out).toMatch(/\n {1,2}20 {2}\w+[^\n]*\n {2}… the other ranked rows[^\n]*npm run demo -- --full/);
  }, 90_000);
});
