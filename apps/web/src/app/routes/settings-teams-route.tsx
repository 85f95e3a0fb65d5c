import { TeamEditorPage, TeamsPage } from '../../features/people';
import { RouteGuard } from '../guards/route-guard';

/** Teams read through the database resource (spec core §6) and follow the settings.teams flag. */
export function SettingsTeamsRoute() {
  return (
    <RouteGuard resource="database" action="read" feature="settings.teams">
      <TeamsPage />
    </RouteGuard>
  );
}

export function SettingsTeamRoute() {
  return (
    <RouteGuard resource="database" action="read" feature="settings.teams">
      <TeamEditorPage />
    </RouteGuard>
  );
}
