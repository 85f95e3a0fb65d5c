import { UsersPage } from '../../features/people';
import { RouteGuard } from '../guards/route-guard';

export function SettingsUsersRoute() {
  return (
    <RouteGuard resource="identities" action="read" feature="settings.users">
      <UsersPage />
    </RouteGuard>
  );
}
