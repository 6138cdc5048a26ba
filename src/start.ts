#!/usr/bin/env node
// The bundled command's entry: turns on V8's compile cache where Node has one (22.1+), then loads the server.
import module from 'node:module';

try {
  (module as { enableCompileCache?: () => unknown }).enableCompileCache?.();
} catch {
  // An unwritable temp folder costs the cache, never the start.
}
await import('./main.js');
