#!/usr/bin/env node
// The bundled command's entry (scripts/pack.ts): turns on V8's compile cache where the running Node has
// one (22.1+; feature-detected, so Node 20 starts as before), then loads the server. With the cache, a
// start after the first skips compiling the server's code: the cache lives in the OS temp folder
// (node-compile-cache, keyed by Node version and file content), which any user may write.
import module from 'node:module';

try {
  (module as { enableCompileCache?: () => unknown }).enableCompileCache?.();
} catch {
  // An unwritable temp folder costs the cache, never the start.
}
await import('./main.js');
