export { IntegrationsPage } from './components/integrations-page';
export { INTEGRATIONS_PATH, integrationEditorPath } from './components/integration-paths';
