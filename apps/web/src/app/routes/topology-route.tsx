import {
  EvidenceActionProvider,
  type RenderEvidenceAction,
} from '../../components/evidence-action/evidence-action';
import {
  PlaybooksActionProvider,
  type RenderPlaybooksAction,
} from '../../components/playbooks-action/playbooks-action';
import { PageSkeleton } from '../../components/skeleton/skeleton';
import { Unauthorized } from '../../components/unauthorized/unauthorized';
import { RequireSignedIn, useCurrentUser } from '../../features/auth';
import {
  ComponentPage,
  TopologiesPage,
  TopologyCardView,
  TopologyEditorPage,
  TopologyPage,
} from '../../features/topology';
import { AttachAsEvidenceButton } from '../../features/incidents/components/incident-link-dialog';
import { PlaybooksMenu } from '../../features/playbooks';
import { useCan } from '../../lib/permissions';
import { RouteGuard } from '../guards/route-guard';

/** Core §2: the topology dashboard reads topologies and is off while topology is disabled. */
export function TopologyRoute() {
  return (
    <RouteGuard resource="topologies" action="read" feature="topology">
      <TopologyPage />
    </RouteGuard>
  );
}

const renderAttachAsEvidence: RenderEvidenceAction = (target) => <AttachAsEvidenceButton target={target} />;
const renderPlaybooks: RenderPlaybooksAction = (target) => <PlaybooksMenu resource={target} />;

/** /topology/{id} with the incidents feature's 'Attach as Evidence' and the playbooks menu. */
export function ComponentRoute() {
  return (
    <RouteGuard resource="topologies" action="read" feature="topology">
      <EvidenceActionProvider render={renderAttachAsEvidence}>
        <PlaybooksActionProvider render={renderPlaybooks}>
          <ComponentPage />
        </PlaybooksActionProvider>
      </EvidenceActionProvider>
    </RouteGuard>
  );
}

function ViewCard() {
  const allowed = useCan('topologies', 'read');
  return allowed ? <TopologyCardView /> : <Unauthorized />;
}

/** Core §2: /view/topology/{id} needs read on topologies and does not wait for feature flags. */
export function TopologyViewRoute() {
  const { status } = useCurrentUser();
  if (status === 'loading') return <PageSkeleton label="Loading" className="p-2" />;
  return (
    <RequireSignedIn>
      <ViewCard />
    </RequireSignedIn>
  );
}

/** Settings §2.4: the topology editor; settings.topology is off while topology is disabled. */
export function SettingsTopologiesRoute() {
  return (
    <RouteGuard resource="topologies" action="read" feature="settings.topology">
      <TopologiesPage />
    </RouteGuard>
  );
}

export function SettingsTopologyRoute() {
  return (
    <RouteGuard resource="topologies" action="read" feature="settings.topology">
      <TopologyEditorPage />
    </RouteGuard>
  );
}
