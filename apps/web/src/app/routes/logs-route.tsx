import { LogsPage } from '../../features/logs';
import { RouteGuard } from '../guards/route-guard';

/** Core §2: /logs reads logging backends and is off while logs is disabled. */
export function LogsRoute() {
  return (
    <RouteGuard resource="logging_backends" action="read" feature="logs">
      <LogsPage />
    </RouteGuard>
  );
}
