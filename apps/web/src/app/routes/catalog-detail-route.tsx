import { ConfigDetailPage, EvidenceActionProvider, type RenderEvidenceAction } from '../../features/catalog';
import { AttachAsEvidenceButton } from '../../features/incidents/components/incident-link-dialog';
import { RouteGuard } from '../guards/route-guard';

const renderAttachAsEvidence: RenderEvidenceAction = (target) => <AttachAsEvidenceButton target={target} />;

/** /catalog/{id} and its sub-pages, with the incidents feature's 'Attach as Evidence'. */
export function CatalogDetailRoute() {
  return (
    <RouteGuard resource="database" action="read" feature="config">
      <EvidenceActionProvider render={renderAttachAsEvidence}>
        <ConfigDetailPage />
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
