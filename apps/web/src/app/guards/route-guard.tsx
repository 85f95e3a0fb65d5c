import type { Feature, MatrixAction, Resource } from '@opsdeck/contracts';
import type { ReactNode } from 'react';
import { PageSkeleton } from '../../components/skeleton/skeleton';
import { Unauthorized } from '../../components/unauthorized/unauthorized';
import { useCan, useFeatureFlags } from '../../lib/permissions';

export interface RouteGuardProps {
  resource: Resource;
  action: MatrixAction;
  /** The area the page belongs to; a disabled area is refused like a missing permission. */
  feature?: Feature;
  children: ReactNode;
}

/**
 * Wraps a route (spec core §6): waits for the feature flags (spec core §2), then renders the
 * page only for a user with the action on the resource, the Unauthorized page otherwise.
 */
export function RouteGuard({ resource, action, feature, children }: RouteGuardProps) {
  const flags = useFeatureFlags();
  const allowed = useCan(resource, action);
  if (flags.isLoading) return <PageSkeleton label="Loading feature flags" />;
  if ((feature && !flags.isEnabled(feature)) || !allowed) return <Unauthorized />;
  return <>{children}</>;
}
