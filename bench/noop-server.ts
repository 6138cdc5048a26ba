// The floors for per-call overhead, on the same SDK over stdio: `noop` returns at once; `passthrough` makes
// the same upstream request as get_streamer_core with raw undici and returns the body as it came, so the
// difference between it and our tool is our own code, not the extra process hop.
import { Server } from '@modelcontextprotocol/server';
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import { Agent, request } from 'undici';

const agent = new Agent({ keepAliveTimeout: 30_000 });
const server = new Server({ name: 'noop', version: '1.0.0' }, { capabilities: { tools: {} } });
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
  const res = await request(String(process.env.UPSTREAM_URL), {
    dispatcher: agent,
    headers: { 'x-api-key': String(process.env.UPSTREAM_KEY), accept: 'application/json' },
  });
  return { content: [{ type: 'text', text: await res.body.text() }] };
});
serveStdio(() => server);
process.stdin.on('end', () => process.exit(0));
