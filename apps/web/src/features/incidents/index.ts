export { IncidentsPage } from './components/incidents-page';
export { IncidentDetailPage } from './components/incident-detail-page';
