/** Applications (/applications) and their audit reports (/applications/{namespace}/{name}). */
export { ApplicationsPage } from './components/applications-page';
export { ApplicationReportPage } from './components/application-report-page';
