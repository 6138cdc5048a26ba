// A given Node version's binary, for what must run on another Node (the manifest's minimum; Node 22 for
// the MCP conformance suite): fetched once from
// the npm registry's `node-<os>-<arch>` package (a plain tarball, no install script) into node_modules/.cache.
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const run = promisify(execFile);
// From the sources (tests) or from dist/scripts (the conformance run): the same cache.
const root = new URL(import.meta.url.includes('/dist/') ? '../..' : '..', import.meta.url);
const cache = fileURLToPath(new URL('node_modules/.cache/node-versions', `${root}/`));

export async function nodeBinary(version: string): Promise<string> {
  const os = process.platform === 'win32' ? 'win' : process.platform;
  const pkg = `node-${os}-${process.arch}`;
  const dir = join(cache, `${pkg}-${version}`);
  const bin = join(dir, 'package', 'bin', process.platform === 'win32' ? 'node.exe' : 'node');
  if (existsSync(bin)) return bin;
  mkdirSync(dir, { recursive: true });
  await run('npm', ['pack', `${pkg}@${version}`, '--pack-destination', dir, '--silent'], { cwd: dir });
  const tarball = readdirSync(dir).find((f) => f.endsWith('.tgz'));
  if (!tarball) throw new Error(`npm pack ${pkg}@${version} gave no tarball`);
  await run('tar', ['xzf', tarball], { cwd: dir });
  return bin;
}
