import { ApplicationReportPage, ApplicationsPage } from '../../features/applications';
import { RouteGuard } from '../guards/route-guard';

/** Core §2: /applications reads the applications relation (database) and is off while applications is disabled. */
export function ApplicationsRoute() {
  return (
    <RouteGuard resource="database" action="read" feature="applications">
      <ApplicationsPage />
    </RouteGuard>
  );
}

export function ApplicationReportRoute() {
  return (
    <RouteGuard resource="database" action="read" feature="applications">
      <ApplicationReportPage />
    </RouteGuard>
  );
}
