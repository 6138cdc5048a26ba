// Writes manifest.json's version and tools from package.json and the server's own tool table, so the
// bundle never describes a tool the server does not have. `npm run manifest`; a test fails on drift.
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { PROMPTS } from '../src/prompts.js';
import { TOOLS } from '../src/tools/index.js';
import { VERSION } from '../src/version.js';

export function manifestTools() {
  return TOOLS.map((t) => ({ name: t.name, description: t.entry().description }));
}

/**
 * The prompts, their text with the manifest's `${arguments.NAME}` placeholders. The host substitutes a
 * blank for an optional argument left empty, so optional ones are not woven into sentences ("over the last
 * hours"): the text is written as if they were absent, and each gets a line of its own that reads well
 * either way.
 */
export function manifestPrompts() {
  return PROMPTS.map((p) => {
    const placeholder = (name: string) => `\${arguments.${name}}`;
    const required = p.arguments.filter((a) => a.required);
    const optional = p.arguments.filter((a) => !a.required);
    const text = p.text(Object.fromEntries(required.map((a) => [a.name, placeholder(a.name)])));
    const lines = optional.map(
      (a) => `${a.description}; if given, pass it as ${a.name}: ${placeholder(a.name)}`,
    );
    return {
      name: p.name,
      description: p.description,
      arguments: p.arguments.map((a) => a.name),
      text: [text, ...lines].join('\n'),
    };
  });
}

const path = fileURLToPath(new URL('../../manifest.json', import.meta.url));
if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const manifest = JSON.parse(readFileSync(path, 'utf8'));
  manifest.version = VERSION;
  manifest.tools = manifestTools();
  manifest.prompts = manifestPrompts();
  writeFileSync(path, `${JSON.stringify(manifest, null, 2)}\n`);
  console.log(
    `manifest.json: version ${VERSION}, ${manifest.tools.length} tools, ${manifest.prompts.length} prompts`,
  );
}
