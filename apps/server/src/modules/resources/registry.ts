import type { ResourceKind } from '../../resource-kinds/index.js';

/**
 * Every resource kind Opsdeck accepts, in the order listings show them. Modules own their kinds
 * (`modules/health/canary-kind.ts`, ...) and declare them in their `module.ts`; `src/modules.ts`
 * registers them all here once, at start (and vitest's setup file does the same for tests).
 */
const registeredKinds: ResourceKind[] = [];

/**
 * Adds kinds to the registry. A kind registered again (the same object) is ignored; another kind
 * answering to a name or table already taken is an error at start, not a silent shadowing.
 */
export function registerResourceKinds(kinds: readonly ResourceKind[]): void {
  for (const kind of kinds) {
    if (registeredKinds.includes(kind)) continue;
    const names = kindAliases(kind);
    const clash = registeredKinds.find(
      (other) => other.kind === kind.kind || kindAliases(other).some((alias) => names.includes(alias)),
    );
    if (clash)
      throw new Error(`Resource kind ${kind.kind} clashes with ${clash.kind} (a name or table in common)`);
    registeredKinds.push(kind);
  }
}

/** The registered kinds, in registration order. */
export function resourceKinds(): readonly ResourceKind[] {
  return registeredKinds;
}

/** Thrown for a kind name or apiVersion/kind pair that no registered kind answers to. */
export class UnknownResourceKindError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UnknownResourceKindError';
  }
}

/** `Canary (canaries.flanksource.com/v1), Team (mission-control.flanksource.com/v1), ...` */
export function describeSupportedKinds(): string {
  return registeredKinds.map((kind) => `${kind.kind} (${kind.apiVersions.join(', ')})`).join(', ');
}

/** The names a kind answers to in the CLI and in URLs: `canary`, `canaries`, `config_scrapers`. */
export function kindAliases(kind: ResourceKind): string[] {
  return [...new Set([kind.kind.toLowerCase(), kind.plural, kind.table])];
}

/** Finds a kind by its lower-case name, plural or table name (case-insensitive). */
export function findResourceKind(name: string): ResourceKind | undefined {
  const wanted = name.trim().toLowerCase();
  return registeredKinds.find((kind) => kindAliases(kind).includes(wanted));
}

/** Like findResourceKind, but an unknown name is an error listing what is supported. */
export function resolveResourceKind(name: string): ResourceKind {
  const kind = findResourceKind(name);
  if (!kind) {
    const names = registeredKinds.map((candidate) => candidate.plural).join(', ');
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
  const byName = registeredKinds.find((kind) => kind.kind === kindName);
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
