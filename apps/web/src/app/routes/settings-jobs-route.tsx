import { JobsHistoryPage } from '../../features/jobs';
import { RouteGuard } from '../guards/route-guard';

export function SettingsJobsRoute() {
  return (
    <RouteGuard resource="database" action="read" feature="settings.job_history">
      <JobsHistoryPage />
    </RouteGuard>
  );
}
