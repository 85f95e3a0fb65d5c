export { authRoutes } from './routes';
export {
  useCurrentUser,
  currentUserQueryOptions,
  CURRENT_USER_QUERY_KEY,
  type CurrentUser,
  type CurrentUserIdentity,
  type CurrentUserPermission,
} from './api/whoami';
export { signOut, redirectToLogin } from './api/session-actions';
export { RequireSignedIn } from './components/require-signed-in';
export { SESSION_ERROR_PATH, FLOW_ERROR_PATH } from './lib/paths';
