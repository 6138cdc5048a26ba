// The tools/list entries computed when the server is bundled (scripts/pack.ts runs every tool's `entry()` and
// hands the result to esbuild as `__TOOL_ENTRIES__`), so a start answers tools/list without loading the
// tools, building their zod schemas or converting them to JSON Schema. Run from the compiled modules or the
// sources (tests), there are none, and each tool builds its entry on first use, as the bundle's build did.
import type { ToolListEntry } from './tool.js';

/** The registry's entries in its order (src/tools/index.ts), and the app-only tools' (src/views.ts). */
export interface PrebuiltEntries {
  tools: readonly ToolListEntry[];
  appOnly: readonly ToolListEntry[];
}

/** The entries as JSON text: parsed at the first tools/list (JSON.parse reads data faster than JS code does). */
declare const __TOOL_ENTRIES__: string | undefined;

let parsed: PrebuiltEntries | undefined;
/** Every tool's entry, or undefined off the bundle. */
export function prebuiltEntries(): PrebuiltEntries | undefined {
  if (typeof __TOOL_ENTRIES__ === 'undefined') return undefined;
  parsed ??= JSON.parse(__TOOL_ENTRIES__) as PrebuiltEntries;
  return parsed;
}

export const prebuiltEntry = (name: string): ToolListEntry | undefined => {
  const all = prebuiltEntries();
  return all?.tools.find((e) => e.name === name) ?? all?.appOnly.find((e) => e.name === name);
};

/** The initialize instructions (src/reference.ts), written into the bundle when it is built, as the entries are. */
export interface PrebuiltInstructions {
  plain: string;
  demo: string;
}
declare const __INSTRUCTIONS__: PrebuiltInstructions | undefined;

/** The instructions, or undefined off the bundle (the server then reads src/reference.ts). */
export const prebuiltInstructions = (): PrebuiltInstructions | undefined =>
  typeof __INSTRUCTIONS__ === 'undefined' ? undefined : __INSTRUCTIONS__;
