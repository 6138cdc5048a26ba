// Where the store lives: the platform's data folder (a pure function of the environment, platform and home)
// and what STREAMER_ANALYTICS_DATABASE_URL's forms mean; and the test run's own data folder is in use.
import { homedir, tmpdir } from 'node:os';
import { describe, expect, it } from 'vitest';
import { dataFolder, locate, nodeTooOld, storeOptions, whyUnavailable } from '../../src/store/index.js';

describe('the default store location', () => {
  it('is XDG on Linux, Application Support on macOS, LocalAppData on Windows', () => {
    expect(dataFolder({}, 'linux', '/home/ana')).toBe('/home/ana/.local/share/streamer-analytics-mcp');
    expect(dataFolder({ XDG_DATA_HOME: '/data/xdg' }, 'linux', '/home/ana')).toBe(
      '/data/xdg/streamer-analytics-mcp',
    );
    expect(dataFolder({}, 'darwin', '/Users/ana')).toBe(
      '/Users/ana/Library/Application Support/streamer-analytics-mcp',
    );
    expect(dataFolder({ LOCALAPPDATA: 'C:\\Users\\ana\\AppData\\Local' }, 'win32', 'C:\\Users\\ana')).toBe(
      'C:\\Users\\ana\\AppData\\Local\\streamer-analytics-mcp',
    );
    expect(dataFolder({}, 'win32', 'C:\\Users\\ana')).toBe(
      'C:\\Users\\ana\\AppData\\Local\\streamer-analytics-mcp',
    );
    // An XDG variable is Linux's: macOS keeps Application Support.
    expect(dataFolder({ XDG_DATA_HOME: '/data/xdg' }, 'darwin', '/Users/ana')).toBe(
      '/Users/ana/Library/Application Support/streamer-analytics-mcp',
    );
  });

  it('reads each form of the database URL', () => {
    expect(locate(undefined)).toEqual({ kind: 'sqlite', path: `${dataFolder()}/history.db` });
    expect(locate('off')).toEqual({ kind: 'off' });
    expect(locate('/tmp/h.db')).toEqual({ kind: 'sqlite', path: '/tmp/h.db' });
    expect(locate('file:///tmp/h%20x.db')).toEqual({ kind: 'sqlite', path: '/tmp/h x.db' });
    expect(locate('postgresql://u@h/db')).toEqual({ kind: 'postgres', url: 'postgresql://u@h/db' });
    expect(locate('/tmp/h.db', true)).toEqual({ kind: 'memory' });
  });

  it('takes its options from the configuration', () => {
    const config = { databaseUrl: 'off', historyDays: 30, watchIntervalMinutes: 15 };
    expect(storeOptions(config, {})).toEqual({
      url: 'off',
      historyDays: 30,
      watchIntervalMinutes: 15,
      watchIntervalMs: 900_000,
    });
  });

  it('is, in this test run, a temporary folder and not the real home', () => {
    expect(dataFolder().startsWith(tmpdir())).toBe(true);
    expect(dataFolder().startsWith(homedir())).toBe(false);
  });
});

describe('a Node without node:sqlite', () => {
  it('is named, with the Node needed and what to do instead', () => {
    expect(nodeTooOld('20.20.2')).toBe(true);
    expect(nodeTooOld('22.12.0')).toBe(true);
    expect(nodeTooOld('22.13.0')).toBe(false);
    expect(nodeTooOld('24.1.0')).toBe(false);
    const error = Object.assign(new Error('No such built-in module: node:sqlite'), {
      code: 'ERR_UNKNOWN_BUILTIN_MODULE',
    });
    expect(whyUnavailable(error, { kind: 'sqlite', path: '/x/history.db' })).toMatch(
      /^SQLite history needs Node 22\.13 or later \(this is Node [\d.]+\): update Node, or set STREAMER_ANALYTICS_DATABASE_URL to a postgres:\/\/ URL or off$/,
    );
  });
});
