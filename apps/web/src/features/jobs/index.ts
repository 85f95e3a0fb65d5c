export { JobsHistoryPage } from './components/jobs-history-page';
export { ResourceJobHistory } from './components/resource-job-history';
