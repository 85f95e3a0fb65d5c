import { ConfigDetailPage, EvidenceActionProvider, type RenderEvidenceAction } from '../../features/catalog';
import { AttachAsEvidenceButton } from '../../features/incidents/components/incident-link-dialog';
import { PlaybooksActionProvider } from '../../components/playbooks-action/playbooks-action';
import { PlaybooksMenu } from '../../features/playbooks';
import { RouteGuard } from '../guards/route-guard';
import { ConfigViewTabsIfAllowed } from './views-route';

const renderAttachAsEvidence: RenderEvidenceAction = (target) => <AttachAsEvidenceButton target={target} />;

const renderPlaybooks = (target: Parameters<typeof PlaybooksMenu>[0]['resource']) => (
  <PlaybooksMenu resource={target} />
);

/** /catalog/{id} and its sub-pages, with the incidents feature's 'Attach as Evidence'. */
export function CatalogDetailRoute() {
  return (
    <RouteGuard resource="database" action="read" feature="config">
      <EvidenceActionProvider render={renderAttachAsEvidence}>
        <PlaybooksActionProvider render={renderPlaybooks}>
          <ConfigDetailPage extraTabs={(configId) => <ConfigViewTabsIfAllowed configId={configId} />} />
        </PlaybooksActionProvider>
      </EvidenceActionProvider>
    </RouteGuard>
  );
}

export {
  ConfigChangesPage,
  ConfigChecksPage,
  ConfigInsightsPage,
  ConfigRelationshipsPage,
  ConfigSpecPage,
} from '../../features/catalog';
