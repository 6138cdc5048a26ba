import { readFileSync } from 'node:fs';
import { getMcpConfigForManifest, hasRequiredConfigMissing } from '@anthropic-ai/mcpb';
import { describe, expect, it } from 'vitest';
import pkg from '../package.json' with { type: 'json' };
import { iconPng } from '../scripts/icon.js';
import { manifestPrompts, manifestTools } from '../scripts/sync-manifest.js';
import { ENV, loadConfig } from '../src/config.js';

const manifest = JSON.parse(readFileSync(new URL('../manifest.json', import.meta.url), 'utf8'));

describe('manifest.json', () => {
  it('keeps the version of package.json, the tools of the tool table and the prompts (npm run manifest)', () => {
    expect(manifest.version).toBe(pkg.version);
    expect(manifest.tools).toEqual(manifestTools());
    expect(manifest.prompts).toEqual(manifestPrompts());
    expect(manifest.prompts[0].text).toContain('${arguments.mintIds}');
  });

  it('reads well when an optional prompt argument is left blank (the host substitutes an empty string)', () => {
    const text = (manifest.prompts[0].text as string).replaceAll('${arguments.hours}', '');
    expect(text).not.toMatch(/last\s+hours|hours\s*;/);
    expect(manifest.prompts[0].text).toMatch(/if given, pass it as hours: \$\{arguments\.hours\}$/);
  });

  it('maps its settings onto the environment names of the contract', () => {
    const env = manifest.server.mcp_config.env as Record<string, string>;
    for (const name of Object.keys(env)) expect(Object.values(ENV)).toContain(name);
    for (const value of Object.values(env)) {
      const setting = /^\$\{user_config\.(\w+)\}$/.exec(value)?.[1];
      expect(manifest.user_config[setting as string], value).toBeDefined();
    }
    expect(manifest.user_config.api_key).toMatchObject({ sensitive: true });
  });

  it('asks for nothing before it starts: Demo mode needs no key, and blank ones get the setup guide', () => {
    for (const setting of Object.values(manifest.user_config) as Array<{ required?: boolean }>)
      expect(setting.required).not.toBe(true);
    expect(hasRequiredConfigMissing({ manifest, userConfig: {} })).toBe(false);
    expect(manifest.user_config.demo).toMatchObject({
      type: 'boolean',
      title: 'Demo mode (simulated data)',
      default: false,
    });
    expect(manifest.server.mcp_config.env[ENV.demo]).toBe('${user_config.demo}');
  });

  it.each([
    [{ demo: true }, true],
    [{ demo: false }, false],
    [{}, false],
  ])(
    'passes Demo mode %j to the server as the desktop app substitutes it (demo: %s)',
    async (userConfig, demo) => {
      const config = await getMcpConfigForManifest({
        manifest,
        extensionPath: '/ext',
        systemDirs: {},
        userConfig,
        pathSeparator: '/',
      });
      const loaded = loadConfig(config?.env ?? {});
      expect(loaded.demo).toBe(demo);
      expect(loaded.problems).toEqual([]);
    },
  );

  it('starts the bundled server, by its path inside the bundle', () => {
    expect(manifest.server.entry_point).toBe('server/index.js');
    expect(manifest.server.mcp_config).toMatchObject({
      command: 'node',
      args: ['${__dirname}/server/index.js'],
    });
  });

  it('has a 512x512 icon, the one scripts/icon.ts draws (npm run icon)', () => {
    const png = readFileSync(new URL(`../${manifest.icon}`, import.meta.url));
    expect([png.readUInt32BE(16), png.readUInt32BE(20)]).toEqual([512, 512]);
    expect(png.equals(iconPng())).toBe(true);
  });

  it('names no repository while there is none public (optional in MCPB 0.3), in package.json neither', () => {
    expect(manifest.repository).toBeUndefined();
    expect((pkg as Record<string, unknown>).repository).toBeUndefined();
    expect(manifest.author).toEqual({ name: 'streamer-analytics-mcp developers' });
  });
});

describe('package-lock.json', () => {
  it('is in sync with package.json, so that npm install leaves it unchanged', () => {
    const lock = JSON.parse(readFileSync(new URL('../package-lock.json', import.meta.url), 'utf8'));
    const root = lock.packages[''];
    for (const field of ['name', 'version', 'license', 'bin', 'engines', 'dependencies', 'devDependencies'])
      expect(root[field], field).toEqual((pkg as Record<string, unknown>)[field]);
    expect(lock.version).toBe(pkg.version);
  });
});
