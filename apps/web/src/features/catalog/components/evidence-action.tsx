import type {
  EvidenceTarget,
  RenderEvidenceAction as RenderAny,
} from '../../../components/evidence-action/evidence-action';

export { EvidenceAction, EvidenceActionProvider } from '../../../components/evidence-action/evidence-action';

/** What a catalog page offers as incident evidence: the item itself or one of its changes. */
export type ConfigEvidenceTarget = Exclude<EvidenceTarget, { kind: 'check' }>;

/** Renders the control that attaches a target as evidence (the incidents feature's button). */
export type RenderEvidenceAction = RenderAny;
