export { IncidentsPage } from './components/incidents-page';
export { IncidentDetailPage } from './components/incident-detail-page';
export {
  AttachAsEvidenceButton,
  IncidentLinkDialog,
  useCanAttachEvidence,
  type IncidentLinkDialogProps,
} from './components/incident-link-dialog';
export type { IncidentLinkTarget } from './lib/incident-link-form';
export { IncidentRulesPage, INCIDENT_RULES_PATH } from './components/incident-rules-page';
export { IncidentRuleEditPage, type RenderRuleJobHistory } from './components/incident-rule-edit-page';
