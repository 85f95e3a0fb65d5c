/**
 * Every module's resource kinds, each imported from its own file when a command needs it:
 * `apply` and `get` register these instead of loading every module (routes, workers, the
 * server), and `apply` loads only the kinds its files declare, so applying one Canary does not
 * load the catalog's scrapers or the CEL environment (issue 22). cli/kinds.test.ts checks the
 * list is the modules' own, in their order, each under its kind's name.
 */
import type { ResourceKind } from '../resource-kinds/index.js';

/** Each kind's name (as YAML documents write it) and loader, in the order of SERVER_MODULES (modules.ts). */
export const CLI_KIND_LOADERS: ReadonlyArray<readonly [string, () => Promise<ResourceKind>]> = [
  ['Team', async () => (await import('../modules/auth/team-kind.js')).teamKind],
  ['Permission', async () => (await import('../modules/auth/permission-kind.js')).permissionKind],
  ['Connection', async () => (await import('../modules/resources/kinds/connection.js')).connectionKind],
  ['Secret', async () => (await import('../modules/resources/kinds/secret.js')).secretKind],
  ['ConfigMap', async () => (await import('../modules/resources/kinds/config-map.js')).configMapKind],
  ['Canary', async () => (await import('../modules/health/canary-kind.js')).canaryKind],
  ['ScrapeConfig', async () => (await import('../modules/catalog/scrape-config-kind.js')).scrapeConfigKind],
  ['Topology', async () => (await import('../modules/topology/topology-kind.js')).topologyKind],
  ['IncidentRule', async () => (await import('../modules/incidents/incident-rule-kind.js')).incidentRuleKind],
  ['Playbook', async () => (await import('../modules/playbooks/playbook-kind.js')).playbookKind],
  [
    'Notification',
    async () => (await import('../modules/notifications/notification-kind.js')).notificationKind,
  ],
  [
    'NotificationSilence',
    async () =>
      (await import('../modules/notifications/notification-silence-kind.js')).notificationSilenceKind,
  ],
  ['View', async () => (await import('../modules/views/view-kind.js')).viewKind],
  [
    'LoggingBackend',
    async () => (await import('../modules/logs/logging-backend-kind.js')).loggingBackendKind,
  ],
  ['Application', async () => (await import('../modules/applications/application-kind.js')).applicationKind],
];

/**
 * The loaders for these kind names, in list order; every loader when a name is not among them
 * (so the error for an unknown kind lists every supported one) or when no names are given.
 */
export function cliKindLoaders(kindNames?: readonly string[]): Array<() => Promise<ResourceKind>> {
  const known = new Set(CLI_KIND_LOADERS.map(([name]) => name));
  const all = kindNames === undefined || kindNames.length === 0 || kindNames.some((name) => !known.has(name));
  return CLI_KIND_LOADERS.filter(([name]) => all || kindNames.includes(name)).map(([, load]) => load);
}

/** Imports the kinds (all, or those named: cliKindLoaders) and registers them, in module order. */
export async function registerCliKinds(kindNames?: readonly string[]): Promise<readonly ResourceKind[]> {
  const [kinds, { registerResourceKinds }] = await Promise.all([
    Promise.all(cliKindLoaders(kindNames).map((load) => load())),
    import('../modules/resources/registry.js'),
  ]);
  registerResourceKinds(kinds);
  return kinds;
}
