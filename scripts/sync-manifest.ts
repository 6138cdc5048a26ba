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

/** The prompts, their text with the manifest's `${arguments.NAME}` placeholders. */
export function manifestPrompts() {
  return PROMPTS.map((p) => ({
    name: p.name,
    description: p.description,
    arguments: p.arguments.map((a) => a.name),
    text: p.text(Object.fromEntries(p.arguments.map((a) => [a.name, `\${arguments.${a.name}}`]))),
  }));
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
