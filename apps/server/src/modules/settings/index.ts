/**
 * The settings module: properties and feature flags, agents, job history, the event queue, views,
 * applications and log backends.
 */
export { settingsRoutes } from './routes.js';
export { addPropertyIfAbsent, anyPropertyTrue, listProperties, propertyExists } from './properties-store.js';
export { settingsModule } from './module.js';
