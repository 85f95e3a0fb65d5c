import { isSettingsResourceTable, resourceForRelation, SETTINGS_RESOURCE_FEATURES } from '@opsdeck/contracts';
import { useParams } from 'react-router';
import { SettingsResourceEditorPage, SettingsTablePage } from '../../features/settings-tables';
import { NotFoundPage } from '../errors/not-found-page';
import { RouteGuard } from '../guards/route-guard';

/**
 * Spec core §2: /settings/{table} for the settings tables without a page of their own (the
 * server's allowlist; config scrapers excluded). Each reads through its table's resource and
 * follows its area flag.
 */
export function SettingsTableRoute() {
  const { table = '' } = useParams();
  // Any other /settings/{word} is an address that does not exist (spec core §2: the not-found page).
  if (!isSettingsResourceTable(table)) return <NotFoundPage />;
  return (
    <RouteGuard
      resource={resourceForRelation(table, 'read')}
      action="read"
      feature={SETTINGS_RESOURCE_FEATURES[table]}
    >
      <SettingsTablePage table={table} />
    </RouteGuard>
  );
}

export function SettingsTableResourceRoute() {
  const { table = '', id = '' } = useParams();
  if (!isSettingsResourceTable(table)) return <NotFoundPage />;
  return (
    <RouteGuard
      resource={resourceForRelation(table, 'read')}
      action="read"
      feature={SETTINGS_RESOURCE_FEATURES[table]}
    >
      <SettingsResourceEditorPage key={`${table}/${id}`} table={table} id={id} />
    </RouteGuard>
  );
}
