import { useParams } from 'react-router';
import {
  ConfigViewPage,
  ConfigViewTabs,
  ViewByIdPage,
  ViewByNamePage,
  ViewEditorPage,
  ViewsSettingsPage,
} from '../../features/views';
import { useCan, useFeatureFlags } from '../../lib/permissions';
import { RouteGuard } from '../guards/route-guard';

/** Core §2: views read views and are off while views are disabled. */
export function ViewByIdRoute() {
  return (
    <RouteGuard resource="views" action="read" feature="views">
      <ViewByIdPage />
    </RouteGuard>
  );
}

export function ViewByNameRoute() {
  return (
    <RouteGuard resource="views" action="read" feature="views">
      <ViewByNamePage />
    </RouteGuard>
  );
}

/** /catalog/{id}/view/{viewId}: a view tab of a config item. */
export function ConfigViewRoute() {
  const { id = '' } = useParams();
  return (
    <RouteGuard resource="views" action="read" feature="views">
      <ConfigViewPage configId={id} />
    </RouteGuard>
  );
}

export function SettingsViewsRoute() {
  return (
    <RouteGuard resource="views" action="read" feature="views">
      <ViewsSettingsPage />
    </RouteGuard>
  );
}

export function SettingsViewRoute() {
  return (
    <RouteGuard resource="views" action="read" feature="views">
      <ViewEditorPage />
    </RouteGuard>
  );
}

/** The view tabs of a config item, for users who read views while views are enabled. */
export function ConfigViewTabsIfAllowed({ configId }: { configId: string }) {
  const allowed = useCan('views', 'read');
  const flags = useFeatureFlags();
  if (!allowed || !flags.isEnabled('views')) return null;
  return <ConfigViewTabs configId={configId} />;
}
