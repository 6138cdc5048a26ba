// Stands in for the MCP client's browser shims inside the view: the App SDK talks to its host with the
// client's protocol layer, which never validates a JSON Schema in a view (no elicitation, no output
// schemas). Leaving the Cloudflare Workers validator out saves 22 KiB of the page.
export const CORS_IS_POSSIBLE = true;
export class DefaultJsonSchemaValidator {
  getValidator(): never {
    throw new Error('JSON Schema validation is not in the view');
  }
}
