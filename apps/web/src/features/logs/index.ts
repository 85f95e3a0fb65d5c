/** The logs page (/logs): sources, a query, a range, the lines and their histogram. */
export { LogsPage } from './components/logs-page';
