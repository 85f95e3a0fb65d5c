export { UsersPage } from './components/users-page';
export { TeamsPage } from './components/teams-page';
export { TeamEditorPage } from './components/team-editor-page';
