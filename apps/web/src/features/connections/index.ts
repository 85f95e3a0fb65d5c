export { ConnectionsPage } from './components/connections-page';
