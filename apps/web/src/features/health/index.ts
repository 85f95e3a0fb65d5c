export { HealthPage } from './components/health-page';
