import { EventQueuePage } from '../../features/event-queue';
import { RouteGuard } from '../guards/route-guard';

export function SettingsEventQueueRoute() {
  return (
    <RouteGuard resource="database" action="read" feature="settings.event_queue_status">
      <EventQueuePage />
    </RouteGuard>
  );
}
