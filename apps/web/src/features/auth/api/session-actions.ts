import { logoutBrowserResponseSchema } from '@opsdeck/contracts';
import { apiFetch } from '../../../lib/api-client';
import { assignLocation, currentPathAndQuery, isAuthScreen, loginPath } from '../lib/navigation';

/** Send the browser to the login screen, coming back to the current path and query afterwards. */
export function redirectToLogin(): void {
  const here = currentPathAndQuery();
  if (isAuthScreen(here)) return;
  assignLocation(loginPath(here));
}

/**
 * End the session and land on `/login?return_to=<returnTo>`.
 * The spec wants "Sign out" to return to the page after signing in again, so `returnTo` is the
 * current path and query; a full navigation drops every cached query of the old user.
 */
export async function signOut(returnTo: string = currentPathAndQuery()): Promise<void> {
  const target = loginPath(isAuthScreen(returnTo) ? '/' : returnTo);
  try {
    const { logout_token: token } = await apiFetch(
      '/api/auth/self-service/logout/browser',
      {},
      { ignoreUnauthorized: true, schema: logoutBrowserResponseSchema },
    );
    await apiFetch<unknown>(
      `/api/auth/self-service/logout?token=${encodeURIComponent(token)}`,
      {},
      { ignoreUnauthorized: true },
    );
  } catch {
    // Without a session there is nothing to end: the login screen is still the right place.
  }
  assignLocation(target);
}
