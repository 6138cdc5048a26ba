// Stands in for the SDK's Node shims inside the bundle. The SDK's default JSON Schema validator is Ajv,
// used only to check what a client answers to elicitation, which this server never asks for; `createServer`
// passes its own validator, so this class is never built. Leaving Ajv out keeps it off every cold start.
export class DefaultJsonSchemaValidator {
  constructor() {
    throw new Error('Ajv is not in this bundle: pass jsonSchemaValidator to the Server');
  }
}
export { default as process } from 'node:process';
