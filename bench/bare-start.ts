// The bare SDK server's entry when bundled as ours is (scripts/pack.ts bundleBareServer): the compile cache
// on, as src/start.ts turns it on, then the server.
import module from 'node:module';

try {
  (module as { enableCompileCache?: () => unknown }).enableCompileCache?.();
} catch {}
await import('./noop-server.js');
