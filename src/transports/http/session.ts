// The Mcp-Session-Id of a 2025 client over --http: what it declared at `initialize` (whether it renders
// MCP Apps views) and a nonce, signed with HMAC-SHA256. Nothing is stored: any replica with the key verifies.
import { createHmac, hkdfSync, randomBytes, timingSafeEqual } from 'node:crypto';
import { EXTENSION_ID, RESOURCE_MIME_TYPE } from '@modelcontextprotocol/ext-apps/server';
import type { ClientCapabilities } from '@modelcontextprotocol/server';

export interface SessionClaims {
  /** The client declared the MCP Apps extension (io.modelcontextprotocol/ui) with our MIME type. */
  apps: boolean;
}

const VERSION = 1;
const NONCE_BYTES = 16;
const MAC_BYTES = 32;
const PAYLOAD_BYTES = 2 + NONCE_BYTES;
/** Fixed label of the key derivation: the session key is never the bearer token itself. */
const LABEL = 'streamer-analytics-mcp/session-id/v1';

export type Sessions = ReturnType<typeof createSessions>;

/** Session ids keyed from the HTTP token (HKDF-SHA256) so replicas agree; else from a random key of this process. */
export function createSessions(token: string | undefined) {
  const key = token ? Buffer.from(hkdfSync('sha256', token, Buffer.alloc(0), LABEL, 32)) : randomBytes(32);
  const mac = (payload: Buffer) => createHmac('sha256', key).update(payload).digest();
  return {
    issue(claims: SessionClaims): string {
      const payload = Buffer.concat([Buffer.from([VERSION, claims.apps ? 1 : 0]), randomBytes(NONCE_BYTES)]);
      return Buffer.concat([payload, mac(payload)]).toString('base64url');
    },
    /** The claims of a session id this server (or a replica with the same token) issued. */
    verify(id: string): SessionClaims | undefined {
      if (id.length > 100 || !/^[A-Za-z0-9_-]+$/.test(id)) return undefined;
      const raw = Buffer.from(id, 'base64url');
      if (raw.length !== PAYLOAD_BYTES + MAC_BYTES || raw.toString('base64url') !== id) return undefined;
      const payload = raw.subarray(0, PAYLOAD_BYTES);
      if (!timingSafeEqual(raw.subarray(PAYLOAD_BYTES), mac(payload))) return undefined;
      if (payload[0] !== VERSION || (payload[1] ?? 0) > 1) return undefined;
      return { apps: payload[1] === 1 };
    },
  };
}

export function capabilitiesOf(claims: SessionClaims): ClientCapabilities {
  return claims.apps ? { extensions: { [EXTENSION_ID]: { mimeTypes: [RESOURCE_MIME_TYPE] } } } : {};
}
