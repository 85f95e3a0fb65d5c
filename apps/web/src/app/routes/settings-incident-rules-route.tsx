import { IncidentRuleEditPage, IncidentRulesPage } from '../../features/incidents';
import { RouteGuard } from '../guards/route-guard';

export function SettingsIncidentRulesRoute() {
  return (
    <RouteGuard resource="database" action="read" feature="incidents">
      <IncidentRulesPage />
    </RouteGuard>
  );
}

export function SettingsIncidentRuleRoute() {
  return (
    <RouteGuard resource="database" action="read" feature="incidents">
      <IncidentRuleEditPage />
    </RouteGuard>
  );
}
