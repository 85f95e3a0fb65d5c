import { createTokenRequestSchema, type CreateTokenRequest } from '@opsdeck/contracts';
import { z } from 'zod';
import { DEFAULT_EXPIRY, MCP_SCOPE, orderedScopeKeys, scopeFromKey, scopeKey } from './scopes';

/**
 * The contract's request schema checks the name ('Name is required' after trimming) and the
 * expiry; the ticked keys become its scope list in the form's order.
 */
export const tokenFormSchema = createTokenRequestSchema
  .pick({ name: true, expiry: true })
  .extend({ scopes: z.array(z.string()) })
  .transform(({ name, expiry, scopes }): CreateTokenRequest => ({
    name,
    expiry,
    scope: orderedScopeKeys(scopes).map(scopeFromKey),
  }));

/** The 'Create new token' form: the request's name and expiry, and the ticked `object:action` keys. */
export type TokenFormValues = z.input<typeof tokenFormSchema>;

/** Where the form starts; 'mcp' starts with the mcp:* scope and a name for the MCP client. */
export function tokenFormDefaults(preset: 'mcp' | undefined, mcpName: string): TokenFormValues {
  return preset === 'mcp'
    ? { name: mcpName, expiry: DEFAULT_EXPIRY, scopes: [scopeKey(MCP_SCOPE)] }
    : { name: '', expiry: DEFAULT_EXPIRY, scopes: [] };
}
