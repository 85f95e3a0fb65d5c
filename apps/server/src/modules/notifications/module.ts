import { READ } from '../../data-api/index.js';
import type { ServerModule } from '../../server-module.js';
import { notificationKind } from './notification-kind.js';
import { notificationSilenceKind } from './notification-silence-kind.js';
import { notificationRoutes } from './routes.js';
import { startNotificationWorkers } from './workers.js';

/**
 * Notifications, silences and the send history: the delivery engine consumes the
 * `notification.*` copies the event fan-out makes for each notification (migration 0290) and
 * sends through `channels/`.
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
  async routes(app, { pool }) {
    await app.register(notificationRoutes, { pool });
  },
  async startWorkers({ pool, jobs, logger, secrets, services }) {
    return startNotificationWorkers({ pool, jobs, logger, secrets, services });
  },
};
