import {
  CatalogChangesPage,
  EvidenceActionProvider,
  type RenderEvidenceAction,
} from '../../features/catalog';
import { AttachAsEvidenceButton } from '../../features/incidents/components/incident-link-dialog';
import { RouteGuard } from '../guards/route-guard';

const renderAttachAsEvidence: RenderEvidenceAction = (target) => <AttachAsEvidenceButton target={target} />;

export function CatalogChangesRoute() {
  return (
    <RouteGuard resource="database" action="read" feature="config">
      <EvidenceActionProvider render={renderAttachAsEvidence}>
        <CatalogChangesPage />
      </EvidenceActionProvider>
    </RouteGuard>
  );
}
