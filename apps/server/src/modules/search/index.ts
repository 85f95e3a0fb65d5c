/** The search module: POST /api/resources/search (see README.md). */
export { searchModule } from './module.js';
export { searchResources } from './search-service.js';
