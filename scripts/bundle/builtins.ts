// Node's built-in modules, taken as CommonJS objects (`process.getBuiltinModule`, Node 22.3+; the manifest
// asks for 22.13) instead of through ES `import`. An ES import of a built-in builds its ES facade, which reads
// every export of the module once, getters included: `node:fs` then loads its streams and fs/promises for
// `ReadStream`, `node:util` its TextDecoder and what that needs. The start path pays for modules it never
// uses. The server's own imports of built-ins are handed stand-ins that read only the names imported.
// An import this cannot read (a namespace import, a re-export) is left to esbuild as it was.
import { readFileSync } from 'node:fs';
import type { Plugin } from 'esbuild';

const NAMESPACE = 'builtin';

/** What `importer` imports from `spec`: the names, and whether the default; undefined for a namespace import. */
export function importedNames(code: string, spec: string): { names: string[]; default: boolean } | undefined {
  const quoted = spec.replace(/[/]/g, '\\/');
  const statements = new RegExp(`import\\s+(?!type\\s)([^;]*?)\\s*from\\s*['"]${quoted}['"]`, 'g');
  const names = new Set<string>();
  let asDefault = false;
  for (const [, clause = ''] of code.matchAll(statements)) {
    if (clause.includes('*')) return undefined;
    const braces = /\{([^}]*)\}/.exec(clause);
    const before = clause
      .replace(/\{[^}]*\}/, '')
      .replace(/,/g, '')
      .trim();
    if (before) asDefault = true;
    for (const part of braces?.[1]?.split(',') ?? []) {
      const name = part
        .trim()
        .split(/\s+as\s+/)[0]
        ?.trim();
      if (name && !name.startsWith('type ')) names.add(name);
    }
  }
  return { names: [...names].sort(), default: asDefault };
}

export const builtinsAsObjects = (root: string): Plugin => ({
  name: NAMESPACE,
  setup(b) {
    b.onResolve({ filter: /^node:/ }, (args) => {
      if (!args.importer.startsWith(root) || args.importer.includes('node_modules')) return undefined;
      if (args.kind !== 'import-statement') return undefined;
      const imported = importedNames(readFileSync(args.importer, 'utf8'), args.path);
      // A namespace import, or a re-export (`export … from`), stays an ES import.
      if (!imported || (!imported.names.length && !imported.default)) return undefined;
      // One stand-in per importer: shared ones would become chunks of their own, a file more to load.
      const path = `${args.path}?${imported.names.join(',')}${imported.default ? '&default' : ''}#${args.importer}`;
      return { path, namespace: NAMESPACE, sideEffects: false };
    });
    b.onLoad({ filter: /.*/, namespace: NAMESPACE }, (args) => {
      const [spec = '', query = ''] = (args.path.split('#')[0] ?? '').split('?');
      const [list = '', asDefault] = query.split('&');
      const lines = [`const m = process.getBuiltinModule(${JSON.stringify(spec)});`];
      for (const name of list.split(',').filter(Boolean)) lines.push(`export const ${name} = m.${name};`);
      if (asDefault) lines.push('export default m;');
      return { contents: `${lines.join('\n')}\n`, loader: 'js' };
    });
  },
});
