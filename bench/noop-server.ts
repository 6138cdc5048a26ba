// The floors for per-call overhead, on the same SDK over stdio: `noop` returns at once; `passthrough` makes
// the same upstream request as get_streamer_core with raw undici and returns the body as it came, so the
// difference between it and our tool is our own code, not the extra process hop. Bundled as ours is
// (bench/bare-start.ts), it is also the cold-start floor for instruction counts: the SDK's own start, with
// undici loaded at the first request as ours loads it, and Ajv left out as ours leaves it.
import { type jsonSchemaValidator, Server } from '@modelcontextprotocol/server';
import { serveStdio } from '@modelcontextprotocol/server/stdio';

// The same stand-in as src/server.ts: no elicitation, so no JSON Schema validator is built.
const noValidator: jsonSchemaValidator = {
  getValidator() {
    throw new Error('no elicitation');
  },
};
const server = new Server(
  { name: 'noop', version: '1.0.0' },
  { capabilities: { tools: {} }, jsonSchemaValidator: noValidator },
);
server.setRequestHandler('tools/list', () => ({
  tools: [
    { name: 'noop', description: 'Returns at once', inputSchema: { type: 'object' } },
    {
      name: 'passthrough',
      description: 'One upstream request, body as text',
      inputSchema: { type: 'object' },
    },
  ],
}));
server.setRequestHandler('tools/call', async (req) => {
  if (req.params.name !== 'passthrough') return { content: [{ type: 'text', text: 'ok' }] };
  const { get } = await import('./bare-upstream.js');
  const text = await get(String(process.env.UPSTREAM_URL), String(process.env.UPSTREAM_KEY));
  return { content: [{ type: 'text', text }] };
});
serveStdio(() => server);
process.stdin.on('end', () => process.exit(0));
