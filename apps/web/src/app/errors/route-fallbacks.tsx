import type { RouteObject } from 'react-router';
import { NotFoundPage } from './not-found-page';
import { RouteErrorScreen } from './route-error-screen';

/** The catch-all route: unknown addresses inside the shell. */
export const NOT_FOUND_ROUTE: RouteObject = {
  path: '*',
  element: <NotFoundPage />,
  handle: { title: 'Not found' },
};

function withErrorElement(route: RouteObject): RouteObject {
  const children = route.children?.map(withErrorElement);
  const hasErrorScreen = route.errorElement !== undefined || route.ErrorBoundary !== undefined;
  return {
    ...route,
    ...(hasErrorScreen ? {} : { errorElement: <RouteErrorScreen /> }),
    ...(children ? { children } : {}),
  } as RouteObject;
}

/**
 * The route table as the router gets it: every route has the error screen as its error element
 * (so an error in a page renders where the page was, inside the shell), and the shell ends with
 * the not-found route. Kept out of the table itself so adding a page stays a one-entry edit.
 *
 * @param shellElementType the shell layout component; its route receives the catch-all
 */
export function withRouteFallbacks(routes: readonly RouteObject[], shellElementType: unknown): RouteObject[] {
  return routes.map((route) => {
    const isShell =
      route.element !== null &&
      typeof route.element === 'object' &&
      route.element !== undefined &&
      'type' in route.element &&
      route.element.type === shellElementType;
    const withCatchAll = isShell
      ? ({ ...route, children: [...(route.children ?? []), NOT_FOUND_ROUTE] } as RouteObject)
      : route;
    return withErrorElement(withCatchAll);
  });
}
