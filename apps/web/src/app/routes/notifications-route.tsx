import {
  AddSilencePage,
  NotificationHistoryPage,
  NotificationRulesPage,
  SilencesPage,
} from '../../features/notifications';
import { RouteGuard } from '../guards/route-guard';

/** Spec core §2: /notifications, /notifications/resource/{resourceId}. */
export function NotificationsRoute() {
  return (
    <RouteGuard resource="notifications" action="read" feature="settings.notifications">
      <NotificationHistoryPage />
    </RouteGuard>
  );
}

export function NotificationRulesRoute() {
  return (
    <RouteGuard resource="notifications" action="read" feature="settings.notifications">
      <NotificationRulesPage />
    </RouteGuard>
  );
}

export function NotificationSilencesRoute() {
  return (
    <RouteGuard resource="notifications" action="read" feature="settings.notifications">
      <SilencesPage />
    </RouteGuard>
  );
}

/** /notifications/silences/add needs write (spec core §2). */
export function NotificationSilenceAddRoute() {
  return (
    <RouteGuard resource="notifications" action="write" feature="settings.notifications">
      <AddSilencePage />
    </RouteGuard>
  );
}
