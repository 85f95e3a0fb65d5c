/** The event queue's settings page API (see README.md). */
export { eventQueueModule } from './module.js';
export { eventQueueRoutes } from './routes.js';
