import { isRouteErrorResponse, useLocation, useRouteError } from 'react-router';
import { ErrorDetails } from '../../components/error-boundary/error-screens';
import { NotFoundPage } from './not-found-page';

/** Production builds keep the stack to themselves (core §2: "stack shown unless hidden"). */
export const HIDE_ERROR_STACK = import.meta.env.PROD;

/**
 * The router's error element: a render error, a loader error or a page chunk that failed to load
 * shows the spec's error screen instead of React Router's developer page; a 404 answer from a
 * loader shows the not-found page. Navigating elsewhere clears it (the router re-renders).
 */
export function RouteErrorScreen() {
  const error = useRouteError();
  const location = useLocation();
  if (isRouteErrorResponse(error) && error.status === 404) return <NotFoundPage />;
  const shown = isRouteErrorResponse(error) ? new Error(`${error.status} ${error.statusText}`) : error;
  return (
    <ErrorDetails
      key={location.key}
      error={shown}
      hideStack={HIDE_ERROR_STACK}
      onRetry={() => window.location.reload()}
    />
  );
}
