import {
  TOKEN_SCOPE_ACTIONS,
  TOKEN_SCOPE_OBJECTS,
  type TokenScope,
  type TokenScopeObject,
} from '@opsdeck/contracts';

/** Scope objects and their actions (settings §3): CRUD for all, playbook verbs, mcp only '*'. */
export const SCOPE_OBJECTS = TOKEN_SCOPE_OBJECTS;
export const SCOPE_ACTIONS = TOKEN_SCOPE_ACTIONS;

export const SCOPE_OBJECT_LABELS: Readonly<Record<TokenScopeObject, string>> = {
  mcp: 'MCP',
  canaries: 'Canaries',
  catalog: 'Catalog',
  application: 'Application',
  playbooks: 'Playbooks',
  notification: 'Notification',
};

/** Token expiry options (settings §9: only 'never'). */
export const EXPIRY_OPTIONS = [{ value: 'never', label: 'Never' }] as const;
export const DEFAULT_EXPIRY = 'never';

/** The scope an MCP client token carries. */
export const MCP_SCOPE: TokenScope = { subject: '', object: 'mcp', action: '*' };

/** `object:action`, the way scopes are written everywhere else (CLI, docs). */
export function scopeKey(scope: Pick<TokenScope, 'object' | 'action'>): string {
  return `${scope.object}:${scope.action}`;
}

export function scopeFromKey(key: string): TokenScope {
  const index = key.indexOf(':');
  return { subject: '', object: key.slice(0, index) as TokenScopeObject, action: key.slice(index + 1) };
}

/** Scope keys in the order the form lists them. */
export function orderedScopeKeys(keys: Iterable<string>): string[] {
  const wanted = new Set(keys);
  return SCOPE_OBJECTS.flatMap((object) =>
    SCOPE_ACTIONS[object].map((action) => scopeKey({ object, action })).filter((key) => wanted.has(key)),
  );
}

/** What a masked token looks like: one bullet per character, at most 48. */
export function maskToken(token: string): string {
  return '•'.repeat(Math.min(token.length, 48));
}
