import { Navigate, type RouteObject } from 'react-router';
import { authRoutes } from '../features/auth';
import { ShellLayout } from './layout/shell-layout';
import type { RouteHandle } from './layout/top-bar';

/** `/` goes to /topology (spec core §2). */
export const LANDING_PATH = '/topology';

const handle = (value: RouteHandle): RouteHandle => value;

/** Sign-in screens outside the shell; console pages inside it, each behind its guard. */
export const appRoutes: RouteObject[] = [
  ...authRoutes,
  // Outside the shell, for embedding (core §2): no sidebar, no wait for feature flags.
  {
    path: 'view/topology/:id',
    lazy: async () => ({ Component: (await import('./routes/topology-route')).TopologyViewRoute }),
  },
  {
    element: <ShellLayout />,
    children: [
      { index: true, element: <Navigate to={LANDING_PATH} replace /> },
      // Pages load on first visit (code-split) so the first load of any page stays small.
      {
        path: 'health',
        lazy: async () => ({ Component: (await import('./routes/health-route')).HealthRoute }),
        handle: handle({ title: 'Health' }),
      },
      {
        path: 'incidents',
        lazy: async () => ({ Component: (await import('./routes/incidents-route')).IncidentsRoute }),
        handle: handle({ title: 'Incidents' }),
      },
      {
        path: 'incidents/:id',
        lazy: async () => ({
          Component: (await import('./routes/incident-detail-route')).IncidentDetailRoute,
        }),
        handle: handle({ title: 'Incident' }),
      },
      {
        path: 'catalog',
        lazy: async () => ({ Component: (await import('./routes/catalog-route')).CatalogRoute }),
        handle: handle({ title: 'Catalog' }),
      },
      {
        path: 'catalog/changes',
        lazy: async () => ({
          Component: (await import('./routes/catalog-changes-route')).CatalogChangesRoute,
        }),
        handle: handle({ title: 'Catalog Changes' }),
      },
      {
        path: 'catalog/insights',
        lazy: async () => ({
          Component: (await import('./routes/catalog-insights-route')).CatalogInsightsRoute,
        }),
        handle: handle({ title: 'Catalog Insights' }),
      },
      {
        path: 'catalog/scrapers',
        lazy: async () => ({
          Component: (await import('./routes/catalog-scrapers-route')).CatalogScrapersRoute,
        }),
        handle: handle({ title: 'Catalog Scrapers' }),
      },
      {
        path: 'catalog/scrapers/:id',
        lazy: async () => ({
          Component: (await import('./routes/catalog-scrapers-route')).CatalogScraperRoute,
        }),
        handle: handle({ title: 'Catalog Scraper' }),
      },
      {
        path: 'catalog/:id',
        lazy: async () => ({ Component: (await import('./routes/catalog-detail-route')).CatalogDetailRoute }),
        handle: handle({ title: 'Catalog' }),
        // The config item's sub-pages (spec core §2): spec, changes, insights, relationships, checks.
        children: [
          {
            index: true,
            lazy: async () => ({ Component: (await import('./routes/catalog-detail-route')).ConfigSpecPage }),
          },
          {
            path: 'changes',
            lazy: async () => ({
              Component: (await import('./routes/catalog-detail-route')).ConfigChangesPage,
            }),
          },
          {
            path: 'insights',
            lazy: async () => ({
              Component: (await import('./routes/catalog-detail-route')).ConfigInsightsPage,
            }),
          },
          {
            path: 'relationships',
            lazy: async () => ({
              Component: (await import('./routes/catalog-detail-route')).ConfigRelationshipsPage,
            }),
          },
          {
            path: 'checks',
            lazy: async () => ({
              Component: (await import('./routes/catalog-detail-route')).ConfigChecksPage,
            }),
          },
          {
            path: 'view/:viewId',
            lazy: async () => ({ Component: (await import('./routes/views-route')).ConfigViewRoute }),
          },
        ],
      },
      { path: 'configs', element: <Navigate to="/catalog" replace /> },
      {
        path: 'playbooks',
        lazy: async () => ({ Component: (await import('./routes/playbooks-route')).PlaybooksRoute }),
        handle: handle({ title: 'Playbooks' }),
      },
      {
        path: 'playbooks/runs',
        lazy: async () => ({ Component: (await import('./routes/playbooks-route')).PlaybookRunsRoute }),
        handle: handle({ title: 'Playbook Runs' }),
      },
      {
        path: 'playbooks/runs/:id',
        lazy: async () => ({ Component: (await import('./routes/playbooks-route')).PlaybookRunRoute }),
        handle: handle({ title: 'Playbook Run' }),
      },
      {
        path: 'playbooks/:id',
        lazy: async () => ({ Component: (await import('./routes/playbooks-route')).PlaybookEditorRoute }),
        handle: handle({ title: 'Playbook' }),
      },
      {
        path: 'settings/jobs',
        lazy: async () => ({ Component: (await import('./routes/settings-jobs-route')).SettingsJobsRoute }),
        handle: handle({ title: 'Jobs History' }),
      },
      {
        path: 'settings/canaries',
        lazy: async () => ({
          Component: (await import('./routes/settings-canaries-route')).SettingsCanariesRoute,
        }),
        handle: handle({ title: 'Health Checks' }),
      },
      {
        path: 'settings/canaries/:id',
        lazy: async () => ({
          Component: (await import('./routes/settings-canaries-route')).SettingsCanaryRoute,
        }),
        handle: handle({ title: 'Health Checks' }),
      },
      {
        path: 'settings/incident_rules',
        lazy: async () => ({
          Component: (await import('./routes/settings-incident-rules-route')).SettingsIncidentRulesRoute,
        }),
        handle: handle({ title: 'Incident Rules' }),
      },
      {
        path: 'settings/incident_rules/:id',
        lazy: async () => ({
          Component: (await import('./routes/settings-incident-rules-route')).SettingsIncidentRuleRoute,
        }),
        handle: handle({ title: 'Incident Rules' }),
      },
      {
        path: 'settings/agents',
        lazy: async () => ({
          Component: (await import('./routes/settings-agents-route')).SettingsAgentsRoute,
        }),
        handle: handle({ title: 'Agents' }),
      },
      {
        path: 'settings/permissions',
        lazy: async () => ({
          Component: (await import('./routes/settings-permissions-route')).SettingsPermissionsRoute,
        }),
        handle: handle({ title: 'Permissions' }),
      },
      {
        path: 'reference/permissions',
        lazy: async () => ({
          Component: (await import('./routes/settings-permissions-route')).PermissionsReferenceRoute,
        }),
        handle: handle({ title: 'Permissions reference' }),
      },
      {
        path: 'settings/teams',
        lazy: async () => ({ Component: (await import('./routes/settings-teams-route')).SettingsTeamsRoute }),
        handle: handle({ title: 'Teams' }),
      },
      {
        path: 'settings/teams/:id',
        lazy: async () => ({ Component: (await import('./routes/settings-teams-route')).SettingsTeamRoute }),
        handle: handle({ title: 'Team' }),
      },
      {
        path: 'settings/users',
        lazy: async () => ({ Component: (await import('./routes/settings-users-route')).SettingsUsersRoute }),
        handle: handle({ title: 'Users' }),
      },
      {
        path: 'settings/tokens',
        lazy: async () => ({
          Component: (await import('./routes/settings-tokens-route')).SettingsTokensRoute,
        }),
        handle: handle({ title: 'Tokens' }),
      },
      {
        path: 'topology',
        lazy: async () => ({ Component: (await import('./routes/topology-route')).TopologyRoute }),
        handle: handle({ title: 'Topology' }),
      },
      {
        path: 'topology/:id',
        lazy: async () => ({ Component: (await import('./routes/topology-route')).ComponentRoute }),
        handle: handle({ title: 'Topology' }),
      },
      {
        path: 'settings/topologies',
        lazy: async () => ({ Component: (await import('./routes/topology-route')).SettingsTopologiesRoute }),
        handle: handle({ title: 'Topologies' }),
      },
      {
        path: 'settings/topologies/:id',
        lazy: async () => ({ Component: (await import('./routes/topology-route')).SettingsTopologyRoute }),
        handle: handle({ title: 'Topologies' }),
      },
      {
        path: 'settings/event-queue-status',
        lazy: async () => ({
          Component: (await import('./routes/settings-event-queue-route')).SettingsEventQueueRoute,
        }),
        handle: handle({ title: 'Event Queue' }),
      },
      {
        path: 'settings/feature-flags',
        lazy: async () => ({
          Component: (await import('./routes/settings-feature-flags-route')).SettingsFeatureFlagsRoute,
        }),
        handle: handle({ title: 'Feature Flags' }),
      },
      {
        path: 'settings/connections',
        lazy: async () => ({
          Component: (await import('./routes/settings-connections-route')).SettingsConnectionsRoute,
        }),
        handle: handle({ title: 'Connections' }),
      },
      {
        path: 'settings/integrations',
        lazy: async () => ({
          Component: (await import('./routes/settings-integrations-route')).SettingsIntegrationsRoute,
        }),
        handle: handle({ title: 'Integrations' }),
      },
      {
        path: 'settings/integrations/:type/:id',
        lazy: async () => ({
          Component: (await import('./routes/settings-integrations-route')).SettingsIntegrationRoute,
        }),
        handle: handle({ title: 'Integrations' }),
      },
      {
        path: 'logs',
        lazy: async () => ({ Component: (await import('./routes/logs-route')).LogsRoute }),
        handle: handle({ title: 'Logs' }),
      },
      {
        path: 'applications',
        lazy: async () => ({ Component: (await import('./routes/applications-route')).ApplicationsRoute }),
        handle: handle({ title: 'Applications' }),
      },
      {
        path: 'applications/:namespace/:name',
        lazy: async () => ({
          Component: (await import('./routes/applications-route')).ApplicationReportRoute,
        }),
        handle: handle({ title: 'Application' }),
      },
      {
        path: 'settings/log-backends',
        lazy: async () => ({
          Component: (await import('./routes/settings-log-backends-route')).SettingsLogBackendsRoute,
        }),
        handle: handle({ title: 'Log Backends' }),
      },
      {
        path: 'settings/log-backends/:id',
        lazy: async () => ({
          Component: (await import('./routes/settings-log-backends-route')).SettingsLogBackendRoute,
        }),
        handle: handle({ title: 'Log Backends' }),
      },
      {
        path: 'notifications',
        lazy: async () => ({
          Component: (await import('./routes/notifications-route')).NotificationsRoute,
        }),
        handle: handle({ title: 'Notifications' }),
      },
      {
        path: 'notifications/resource/:resourceId',
        lazy: async () => ({
          Component: (await import('./routes/notifications-route')).NotificationsRoute,
        }),
        handle: handle({ title: 'Notifications' }),
      },
      {
        path: 'notifications/rules',
        lazy: async () => ({
          Component: (await import('./routes/notifications-route')).NotificationRulesRoute,
        }),
        handle: handle({ title: 'Notifications' }),
      },
      {
        path: 'notifications/silences',
        lazy: async () => ({
          Component: (await import('./routes/notifications-route')).NotificationSilencesRoute,
        }),
        handle: handle({ title: 'Notifications' }),
      },
      {
        path: 'notifications/silences/add',
        lazy: async () => ({
          Component: (await import('./routes/notifications-route')).NotificationSilenceAddRoute,
        }),
        handle: handle({ title: 'Notifications' }),
      },
      {
        path: 'views/:id',
        lazy: async () => ({ Component: (await import('./routes/views-route')).ViewByIdRoute }),
        handle: handle({ title: 'Views' }),
      },
      {
        path: 'view/:namespace/:name',
        lazy: async () => ({ Component: (await import('./routes/views-route')).ViewByNameRoute }),
        handle: handle({ title: 'Views' }),
      },
      {
        path: 'view/:name',
        lazy: async () => ({ Component: (await import('./routes/views-route')).ViewByNameRoute }),
        handle: handle({ title: 'Views' }),
      },
      {
        path: 'settings/views',
        lazy: async () => ({ Component: (await import('./routes/views-route')).SettingsViewsRoute }),
        handle: handle({ title: 'Views' }),
      },
      {
        path: 'settings/views/:id',
        lazy: async () => ({ Component: (await import('./routes/views-route')).SettingsViewRoute }),
        handle: handle({ title: 'Views' }),
      },
      // Spec core §2: the generic settings resources; the pages above win for their own paths.
      {
        path: 'settings/:table',
        lazy: async () => ({ Component: (await import('./routes/settings-table-route')).SettingsTableRoute }),
        handle: handle({ title: 'Settings' }),
      },
      {
        path: 'settings/:table/:id',
        lazy: async () => ({
          Component: (await import('./routes/settings-table-route')).SettingsTableResourceRoute,
        }),
        handle: handle({ title: 'Settings' }),
      },
      // The living catalogue of the design system: development builds only (dropped from production).
      ...(import.meta.env.DEV
        ? [
            {
              path: 'dev/components',
              lazy: async () => ({
                Component: (await import('./routes/component-catalogue-route')).ComponentCatalogueRoute,
              }),
              handle: handle({ title: 'Components', refresh: false }),
            },
          ]
        : []),
    ],
  },
];
