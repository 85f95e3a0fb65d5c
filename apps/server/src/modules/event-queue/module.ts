import type { ServerModule } from '../../server-module.js';
import { eventQueueRoutes } from './routes.js';

/** The event queue's settings page API: per-name status, failed events, retry and discard. */
export const eventQueueModule: ServerModule = {
  name: 'event-queue',
  async routes(app, { pool }) {
    await app.register(eventQueueRoutes, { pool });
  },
};
