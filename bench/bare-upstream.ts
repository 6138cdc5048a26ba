// The bare tool's upstream request with raw undici, loaded at its first call (as src/api/client.ts is).
import { Agent, request } from 'undici';

const agent = new Agent({ keepAliveTimeout: 30_000 });

export async function get(url: string, apiKey: string): Promise<string> {
  const res = await request(url, {
    dispatcher: agent,
    headers: { 'x-api-key': apiKey, accept: 'application/json' },
  });
  return res.body.text();
}
