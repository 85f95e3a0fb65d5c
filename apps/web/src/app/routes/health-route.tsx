import {
  EvidenceActionProvider,
  type RenderEvidenceAction,
} from '../../components/evidence-action/evidence-action';
import { HealthPage } from '../../features/health';
import { AttachAsEvidenceButton } from '../../features/incidents';
import { PlaybooksActionProvider } from '../../components/playbooks-action/playbooks-action';
import { PlaybooksMenu } from '../../features/playbooks';
import { RouteGuard } from '../guards/route-guard';

const renderAttachAsEvidence: RenderEvidenceAction = (target) => <AttachAsEvidenceButton target={target} />;

const renderPlaybooks = (target: Parameters<typeof PlaybooksMenu>[0]['resource']) => (
  <PlaybooksMenu resource={target} />
);

/** /health, with the incidents feature's 'Attach as Evidence' in a check's panel. */
export function HealthRoute() {
  return (
    <RouteGuard resource="canaries" action="read" feature="health">
      <EvidenceActionProvider render={renderAttachAsEvidence}>
        <PlaybooksActionProvider render={renderPlaybooks}>
          <HealthPage />
        </PlaybooksActionProvider>
      </EvidenceActionProvider>
    </RouteGuard>
  );
}
