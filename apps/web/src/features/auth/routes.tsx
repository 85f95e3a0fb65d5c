import type { RouteObject } from 'react-router';
import { FLOW_ERROR_PATH, SESSION_ERROR_PATH } from './lib/paths';
import { AuthStateCheckerPage } from './pages/auth-state-checker-page';
import { FlowErrorPage } from './pages/flow-error-page';
import { LoginPage } from './pages/login-page';
import { RecoveryPage } from './pages/recovery-page';
import { RegistrationPage } from './pages/registration-page';
import { SessionErrorPage } from './pages/session-error-page';
import { SettingsPage } from './pages/settings-page';
import { VerificationPage } from './pages/verification-page';

/**
 * The sign-in screens, full-page outside the app shell. Bundled with the app rather than lazy:
 * a login screen must still open when a deploy has replaced the chunks a tab knows about.
 * - `/error/session?error_code=BAD_SESSION` the bad-session page
 * - `/error?id=<id>` the flow-error page
 */
export const authRoutes: RouteObject[] = [
  { path: '/login', element: <LoginPage /> },
  { path: '/registration', element: <RegistrationPage /> },
  { path: '/recovery', element: <RecoveryPage /> },
  { path: '/verification', element: <VerificationPage /> },
  { path: '/profile-settings', element: <SettingsPage /> },
  { path: SESSION_ERROR_PATH, element: <SessionErrorPage /> },
  { path: FLOW_ERROR_PATH, element: <FlowErrorPage /> },
  { path: '/auth-state-checker', element: <AuthStateCheckerPage /> },
];
