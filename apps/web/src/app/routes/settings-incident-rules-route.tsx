import { IncidentRuleEditPage, IncidentRulesPage, type RenderRuleJobHistory } from '../../features/incidents';
import { JobHistoryTable } from '../../components/job-history-table/job-history-table';
import { RouteGuard } from '../guards/route-guard';

export function SettingsIncidentRulesRoute() {
  return (
    <RouteGuard resource="database" action="read" feature="incidents">
      <IncidentRulesPage />
    </RouteGuard>
  );
}

/** Settings §2.4: the rule editor's Job History tab is the shared jobs table for the rule. */
const ruleJobHistory: RenderRuleJobHistory = (ruleId) => (
  <JobHistoryTable resourceId={ruleId} tableId="incident-rule-jobs" />
);

export function SettingsIncidentRuleRoute() {
  return (
    <RouteGuard resource="database" action="read" feature="incidents">
      <IncidentRuleEditPage renderJobHistory={ruleJobHistory} />
    </RouteGuard>
  );
}
