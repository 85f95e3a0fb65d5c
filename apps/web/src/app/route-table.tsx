import { Navigate, type RouteObject } from 'react-router';
import { authRoutes } from '../features/auth';
import { ShellLayout } from './layout/shell-layout';
import type { RouteHandle } from './layout/top-bar';

/** `/` goes to /topology (spec core §2), which falls back to /health until topology exists. */
export const LANDING_PATH = '/health';

const handle = (value: RouteHandle): RouteHandle => value;

/** Sign-in screens outside the shell; console pages inside it, each behind its guard. */
export const appRoutes: RouteObject[] = [
  ...authRoutes,
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
        path: 'catalog/:id',
        lazy: async () => ({ Component: (await import('./routes/catalog-detail-route')).CatalogDetailRoute }),
        handle: handle({ title: 'Catalog' }),
      },
      { path: 'configs', element: <Navigate to="/catalog" replace /> },
      {
        path: 'settings/jobs',
        lazy: async () => ({ Component: (await import('./routes/settings-jobs-route')).SettingsJobsRoute }),
        handle: handle({ title: 'Jobs History' }),
      },
      {
        path: 'settings/feature-flags',
        lazy: async () => ({
          Component: (await import('./routes/settings-feature-flags-route')).SettingsFeatureFlagsRoute,
        }),
        handle: handle({ title: 'Feature Flags' }),
      },
    ],
  },
];
