import { useParams } from 'react-router';
import { NoDetailsFound } from '../../components/empty-state/empty-state';
import { ScraperEditorPage } from '../../features/catalog';
import { IntegrationsPage } from '../../features/integrations';
import { LogBackendEditorPage } from '../../features/log-backends';
import { TopologyEditorPage } from '../../features/topology';
import { RouteGuard } from '../guards/route-guard';

/** Core §2: /settings/integrations, a settings page behind settings.integrations. */
export function SettingsIntegrationsRoute() {
  return (
    <RouteGuard resource="integrations" action="read" feature="settings.integrations">
      <IntegrationsPage />
    </RouteGuard>
  );
}

/** The editor of one integration type; each reads `:id` from the route itself. */
function IntegrationEditor() {
  const { type = '' } = useParams();
  if (type === 'scrapers') return <ScraperEditorPage />;
  if (type === 'topologies') return <TopologyEditorPage />;
  // Log backends use their own form (settings §2.5), which reads `:id` like the others.
  if (type === 'logging_backends') return <LogBackendEditorPage />;
  return <NoDetailsFound />;
}

/** Core §2: /settings/integrations/{type}/{id} edits an integration and needs write. */
export function SettingsIntegrationRoute() {
  return (
    <RouteGuard resource="integrations" action="write" feature="settings.integrations">
      <IntegrationEditor />
    </RouteGuard>
  );
}
