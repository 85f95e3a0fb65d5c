import { Navigate, type RouteObject } from 'react-router';
import { authRoutes } from '../features/auth';
import { ShellLayout } from './layout/shell-layout';
import type { RouteHandle } from './layout/top-bar';

/** Until the health and topology pages land, the console opens on the jobs history. */
export const LANDING_PATH = '/settings/jobs';

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
