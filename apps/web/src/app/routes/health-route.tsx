import {
  EvidenceActionProvider,
  type RenderEvidenceAction,
} from '../../components/evidence-action/evidence-action';
import { HealthPage } from '../../features/health';
import { AttachAsEvidenceButton } from '../../features/incidents';
import { RouteGuard } from '../guards/route-guard';

const renderAttachAsEvidence: RenderEvidenceAction = (target) => <AttachAsEvidenceButton target={target} />;

/** /health, with the incidents feature's 'Attach as Evidence' in a check's panel. */
export function HealthRoute() {
  return (
    <RouteGuard resource="canaries" action="read" feature="health">
      <EvidenceActionProvider render={renderAttachAsEvidence}>
        <HealthPage />
      </EvidenceActionProvider>
    </RouteGuard>
  );
}
