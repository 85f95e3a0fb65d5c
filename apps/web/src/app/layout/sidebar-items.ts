import type { Feature, Resource } from '@opsdeck/contracts';
import {
  Activity,
  AlertTriangle,
  AppWindow,
  Boxes,
  LayoutDashboard,
  PlayCircle,
  ScrollText,
  type LucideIcon,
} from 'lucide-react';

/** An entry of the sidebar (spec core §2 "Sidebar"). */
export interface SidebarItem {
  name: string;
  path: string;
  /** Hidden without read on this resource. */
  resource: Resource;
  /** Hidden while this area is disabled. */
  feature?: Feature;
}

/** Main entries in the spec's order (Dashboard, Health, Incidents, Catalog, …) for the pages that exist. */
export const MAIN_ITEMS: readonly (SidebarItem & { icon: LucideIcon })[] = [
  {
    name: 'Dashboard',
    path: '/topology',
    resource: 'topologies',
    feature: 'topology',
    icon: LayoutDashboard,
  },
  { name: 'Health', path: '/health', resource: 'canaries', feature: 'health', icon: Activity },
  { name: 'Incidents', path: '/incidents', resource: 'incident', feature: 'incidents', icon: AlertTriangle },
  { name: 'Catalog', path: '/catalog', resource: 'database', feature: 'config', icon: Boxes },
  { name: 'Logs', path: '/logs', resource: 'logging_backends', feature: 'logs', icon: ScrollText },
  { name: 'Playbooks', path: '/playbooks', resource: 'playbooks', feature: 'playbooks', icon: PlayCircle },
  {
    name: 'Applications',
    path: '/applications',
    resource: 'database',
    feature: 'applications',
    icon: AppWindow,
  },
];

/**
 * Settings pages that exist now. The spec's full list (Connections, Permissions, Users, …) joins
 * as those pages land; the menu is sorted by name whatever the order here.
 */
export const SETTINGS_ITEMS: readonly SidebarItem[] = [
  { name: 'Health Checks', path: '/settings/canaries', resource: 'canaries', feature: 'settings.health' },
  { name: 'Jobs History', path: '/settings/jobs', resource: 'database', feature: 'settings.job_history' },
  { name: 'Incident Rules', path: '/settings/incident_rules', resource: 'database', feature: 'incidents' },
  { name: 'Tokens', path: '/settings/tokens', resource: 'auth' },
  { name: 'Topologies', path: '/settings/topologies', resource: 'topologies', feature: 'settings.topology' },
  {
    name: 'Feature Flags',
    path: '/settings/feature-flags',
    resource: 'feature_flags',
    feature: 'settings.feature_flags',
  },
  {
    name: 'Connections',
    path: '/settings/connections',
    resource: 'connections',
    feature: 'settings.connections',
  },
  {
    name: 'Notifications',
    path: '/notifications',
    resource: 'notifications',
    feature: 'settings.notifications',
  },
  { name: 'Users', path: '/settings/users', resource: 'identities', feature: 'settings.users' },
  { name: 'Teams', path: '/settings/teams', resource: 'database', feature: 'settings.teams' },
  { name: 'Permissions', path: '/settings/permissions', resource: 'rbac', feature: 'settings.permissions' },
  { name: 'Agents', path: '/settings/agents', resource: 'agents', feature: 'agents' },
  {
    name: 'Integrations',
    path: '/settings/integrations',
    resource: 'integrations',
    feature: 'settings.integrations',
  },
  {
    name: 'Log Backends',
    path: '/settings/log-backends',
    resource: 'logging_backends',
    feature: 'settings.logging_backends',
  },
  {
    name: 'Event Queue',
    path: '/settings/event-queue-status',
    resource: 'database',
    feature: 'settings.event_queue_status',
  },
  { name: 'Views', path: '/settings/views', resource: 'views', feature: 'views' },
];

/** What the sidebar's per-view entries need: read on views while views are enabled. */
export const VIEWS_ENTRY: SidebarItem = {
  name: 'Views',
  path: '/views',
  resource: 'views',
  feature: 'views',
};

export interface SidebarRules {
  isViewer: boolean;
  canRead(resource: Resource): boolean;
  isEnabled(feature: Feature): boolean;
}

/** Entries the user may see: the feature is on and the user reads the resource. */
export function visibleItems(items: readonly SidebarItem[], rules: SidebarRules): SidebarItem[] {
  return items.filter(
    (item) => (!item.feature || rules.isEnabled(item.feature)) && rules.canRead(item.resource),
  );
}

/** The Settings submenu: nothing for viewers, otherwise the visible entries sorted by name. */
export function visibleSettingsItems(items: readonly SidebarItem[], rules: SidebarRules): SidebarItem[] {
  if (rules.isViewer) return [];
  return visibleItems(items, rules).sort((a, b) => a.name.localeCompare(b.name));
}
