/** The login path that brings the user back to `returnTo` after signing in. */
export function loginPath(returnTo: string, extra: Record<string, string> = {}): string {
  const params = new URLSearchParams({ ...extra, return_to: returnTo || '/' });
  return `/login?${params.toString()}`;
}

/** The current path and query of the window, the place to come back to. */
export function currentPathAndQuery(): string {
  return `${window.location.pathname}${window.location.search}`;
}

const AUTH_PATHS = ['/login', '/registration', '/recovery', '/verification', '/error', '/auth-state-checker'];

/** Never send the user back to a sign-in screen after signing in. */
export function isAuthScreen(path: string): boolean {
  const pathname = path.split(/[?#]/)[0] ?? '';
  return AUTH_PATHS.some((prefix) => pathname === prefix || pathname.startsWith(`${prefix}/`));
}

/** A full navigation, so every cache and in-memory state starts fresh. */
export function assignLocation(url: string): void {
  window.location.assign(url);
}
