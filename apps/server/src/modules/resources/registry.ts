import { RESOURCE_KINDS } from './kinds/index.js';
import type { ResourceKind } from './resource-kind.js';

/** Thrown for a kind name or apiVersion/kind pair that no registered kind answers to. */
export class UnknownResourceKindError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UnknownResourceKindError';
  }
}

/** `Canary (canaries.flanksource.com/v1), Team (mission-control.flanksource.com/v1), ...` */
export function describeSupportedKinds(): string {
  return RESOURCE_KINDS.map((kind) => `${kind.kind} (${kind.apiVersions.join(', ')})`).join(', ');
}

/** The names a kind answers to in the CLI and in URLs: `canary`, `canaries`, `config_scrapers`. */
export function kindAliases(kind: ResourceKind): string[] {
  return [...new Set([kind.kind.toLowerCase(), kind.plural, kind.table])];
}

/** Finds a kind by its lower-case name, plural or table name (case-insensitive). */
export function findResourceKind(name: string): ResourceKind | undefined {
  const wanted = name.trim().toLowerCase();
  return RESOURCE_KINDS.find((kind) => kindAliases(kind).includes(wanted));
}

/** Like findResourceKind, but an unknown name is an error listing what is supported. */
export function resolveResourceKind(name: string): ResourceKind {
  const kind = findResourceKind(name);
  if (!kind) {
    const names = RESOURCE_KINDS.map((candidate) => candidate.plural).join(', ');
    throw new UnknownResourceKindError(`Unknown resource kind "${name}". Supported: ${names}`);
  }
  return kind;
}

/**
 * The kind a YAML document declares with `apiVersion` and `kind`, or the reason none fits
 * (unknown kind, or a known kind under another apiVersion).
 */
export function kindForDocument(
  apiVersion: string,
  kindName: string,
): { kind: ResourceKind } | { error: string } {
  const byName = RESOURCE_KINDS.find((kind) => kind.kind === kindName);
  if (!byName) {
    return {
      error: `unknown resource kind "${kindName}" (apiVersion ${apiVersion}). Supported kinds: ${describeSupportedKinds()}`,
    };
  }
  if (!byName.apiVersions.includes(apiVersion)) {
    return {
      error: `${kindName} resources use apiVersion ${byName.apiVersions.join(' or ')}, not "${apiVersion}"`,
    };
  }
  return { kind: byName };
}
