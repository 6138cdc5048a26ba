// The tools/list entries computed at bundle time (scripts/pack.ts: `__TOOL_ENTRIES__`), so a start answers
// tools/list without building the zod schemas. Off the bundle each tool builds its entry on first use.
import type { ToolListEntry } from './tool.js';

/** The registry's entries in its order (src/tools/index.ts), and the app-only tools' (src/views.ts). */
export interface PrebuiltEntries {
  tools: readonly ToolListEntry[];
  appOnly: readonly ToolListEntry[];
}

/** The entries as JSON text: JSON.parse reads data faster than JS code does. */
declare const __TOOL_ENTRIES__: string | undefined;

let parsed: PrebuiltEntries | undefined;
export function prebuiltEntries(): PrebuiltEntries | undefined {
  if (typeof __TOOL_ENTRIES__ === 'undefined') return undefined;
  parsed ??= JSON.parse(__TOOL_ENTRIES__) as PrebuiltEntries;
  return parsed;
}

export const prebuiltEntry = (name: string): ToolListEntry | undefined => {
  const all = prebuiltEntries();
  return all?.tools.find((e) => e.name === name) ?? all?.appOnly.find((e) => e.name === name);
};

/** The initialize instructions (src/reference.ts), written into the bundle as the entries are. */
export interface PrebuiltInstructions {
  plain: string;
  demo: string;
}
declare const __INSTRUCTIONS__: PrebuiltInstructions | undefined;

export const prebuiltInstructions = (): PrebuiltInstructions | undefined =>
  typeof __INSTRUCTIONS__ === 'undefined' ? undefined : __INSTRUCTIONS__;
