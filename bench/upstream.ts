// The simulator in a process of its own for the per-call measurement: a real upstream is never inside the
// client's process, so the direct request and the server's request both cross a process boundary.
// Prints one JSON line ({ url, apiKey, mint }) and serves until its stdin closes.
import { dialectName } from '../src/simulator/dialect.js';
import { startSimulator } from '../src/simulator/server.js';

// SIM_DIALECT: how it names what the document leaves unstated (src/simulator/dialect.ts).
const sim = await startSimulator({ apiKey: 'bench-key', dialect: dialectName(process.env.SIM_DIALECT) });
// Each request is recorded by the simulator; the bench needs none of them, so they are dropped.
setInterval(() => sim.reset(), 1_000).unref();
console.log(JSON.stringify({ url: sim.url, apiKey: sim.apiKey, mint: sim.data.tokens[0]?.mintId }));
process.stdin.on('end', () => sim.close().then(() => process.exit(0)));
process.stdin.resume();
