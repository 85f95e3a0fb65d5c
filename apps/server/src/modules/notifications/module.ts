import { READ } from '../../data-api/index.js';
import type { ServerModule } from '../../server-module.js';
import { notificationKind } from './notification-kind.js';
import { notificationSilenceKind } from './notification-silence-kind.js';

/**
 * Notifications, silences and the send history. Today the module owns the kinds, the tables and
 * the views that clients read; delivery, rules and grouping come with issue 25.
 */
export const notificationsModule: ServerModule = {
  name: 'notifications',
  kinds: [notificationKind, notificationSilenceKind],
  dataApi: {
    tables: {
      notifications: {},
      notification_send_history: { actions: READ },
      notification_silences: {},
    },
    views: {
      notifications_summary: {},
      notification_send_history_summary: {},
    },
  },
};
