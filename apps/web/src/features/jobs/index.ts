export { JobsHistoryPage } from './components/jobs-history-page';
