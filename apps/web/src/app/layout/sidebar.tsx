import {
  Disclosure,
  DisclosureButton,
  DisclosurePanel,
  Popover,
  PopoverButton,
  PopoverPanel,
} from '@headlessui/react';
import type { Feature } from '@opsdeck/contracts';
import clsx from 'clsx';
import { ChevronDown, LayoutDashboard, PanelLeftClose, PanelLeftOpen, Settings } from 'lucide-react';
import { useEffect, useRef } from 'react';
import { Link, NavLink, useLocation } from 'react-router';
import { ResourceIcon } from '../../components/resource-icon/resource-icon';
import { useCurrentUser } from '../../features/auth';
import { useSidebarViews } from '../../features/views/api/views-list';
import { useCanFunction, useFeatureFlags, useIsViewer } from '../../lib/permissions';
import {
  MAIN_ITEMS,
  SETTINGS_ITEMS,
  VIEWS_ENTRY,
  visibleItems,
  visibleSettingsItems,
  type SidebarItem,
} from './sidebar-items';
import { useSidebarCollapsed } from './use-sidebar-collapsed';

/** Below this window width a click outside the sidebar collapses it (spec core §9). */
export const AUTO_COLLAPSE_BELOW_PX = 1024;

function linkClass({ isActive }: { isActive: boolean }): string {
  return clsx(
    'block rounded-md px-3 py-1.5 text-sm',
    isActive ? 'bg-blue-50 font-medium text-blue-700' : 'text-gray-700 hover:bg-gray-100',
  );
}

/** Sidebar of the console: logo, navigation, Settings submenu and the collapse toggle. */
export function Sidebar() {
  const [collapsed, setCollapsed] = useSidebarCollapsed();
  const ref = useRef<HTMLElement>(null);
  const flags = useFeatureFlags();
  const can = useCanFunction();
  const isViewer = useIsViewer();
  // Spec core §2: the users page is hidden when people come from a hosted identity provider.
  const { hostedIdentityProvider } = useCurrentUser();
  const rules = {
    isViewer,
    canRead: (resource: SidebarItem['resource']) => can(resource, 'read'),
    isEnabled: (feature: Feature) =>
      flags.isEnabled(feature) && !(feature === 'settings.users' && hostedIdentityProvider),
  };
  const mainItems = MAIN_ITEMS.filter((item) => visibleItems([item], rules).length > 0);
  const settingsItems = visibleSettingsItems(SETTINGS_ITEMS, rules);
  // One entry per view flagged for the sidebar (core §2), cached 5 min.
  const viewsVisible = visibleItems([VIEWS_ENTRY], rules).length > 0;
  const sidebarViews = useSidebarViews(viewsVisible);
  const viewItems = viewsVisible ? (sidebarViews.data ?? []) : [];

  useEffect(() => {
    if (collapsed) return;
    const onPointerDown = (event: MouseEvent) => {
      if (window.innerWidth >= AUTO_COLLAPSE_BELOW_PX) return;
      if (event.target instanceof Node && ref.current?.contains(event.target)) return;
      setCollapsed(true);
    };
    document.addEventListener('mousedown', onPointerDown);
    return () => document.removeEventListener('mousedown', onPointerDown);
  }, [collapsed, setCollapsed]);

  return (
    <nav
      ref={ref}
      aria-label="Sidebar"
      data-collapsed={collapsed}
      className={clsx(
        'sticky top-0 flex h-screen shrink-0 flex-col bg-white transition-[width]',
        collapsed ? 'w-14' : 'w-56',
      )}
    >
      <Link
        to="/"
        aria-label="Opsdeck home"
        className="flex h-14 items-center gap-2 border-b border-gray-200 px-4 font-semibold text-gray-900"
      >
        <LayoutDashboard className="size-5 shrink-0 text-blue-600" aria-hidden />
        {!collapsed && <span>Opsdeck</span>}
      </Link>
      <div className="flex-1 overflow-y-auto p-2">
        <ul className="mb-2 flex flex-col gap-0.5">
          {mainItems.map((item) => (
            <li key={item.path}>
              <NavLink
                to={item.path}
                title={collapsed ? item.name : undefined}
                aria-label={collapsed ? item.name : undefined}
                className={({ isActive }) => clsx(linkClass({ isActive }), 'flex items-center gap-2')}
              >
                <item.icon className="size-5 shrink-0 text-gray-500" aria-hidden />
                {!collapsed && <span>{item.name}</span>}
              </NavLink>
            </li>
          ))}
          {viewItems.map((view) => (
            <li key={view.id}>
              <NavLink
                to={`/views/${encodeURIComponent(view.id)}`}
                title={collapsed ? (view.title ?? view.name) : undefined}
                aria-label={collapsed ? (view.title ?? view.name) : undefined}
                className={({ isActive }) => clsx(linkClass({ isActive }), 'flex items-center gap-2')}
              >
                <ResourceIcon icon={view.icon} className="size-5 shrink-0 text-gray-500" />
                {!collapsed && <span>{view.title ?? view.name}</span>}
              </NavLink>
            </li>
          ))}
        </ul>
        {settingsItems.length > 0 &&
          (collapsed ? <SettingsFlyout items={settingsItems} /> : <SettingsSubmenu items={settingsItems} />)}
      </div>
      <button
        type="button"
        onClick={() => setCollapsed(!collapsed)}
        aria-label={collapsed ? 'Expand sidebar' : 'Collapse sidebar'}
        aria-expanded={!collapsed}
        className="m-2 flex items-center justify-center rounded-md p-2 text-gray-500 hover:bg-gray-100 hover:text-gray-700"
      >
        {collapsed ? (
          <PanelLeftOpen className="size-5" aria-hidden />
        ) : (
          <PanelLeftClose className="size-5" aria-hidden />
        )}
      </button>
    </nav>
  );
}

function SettingsSubmenu({ items }: { items: SidebarItem[] }) {
  const { pathname } = useLocation();
  return (
    <Disclosure defaultOpen={pathname.startsWith('/settings')}>
      <DisclosureButton className="group flex w-full items-center gap-2 rounded-md px-3 py-2 text-sm font-medium text-gray-700 hover:bg-gray-100">
        <Settings className="size-5 shrink-0 text-gray-500" aria-hidden />
        <span className="flex-1 text-left">Settings</span>
        <ChevronDown className="size-4 transition-transform group-data-open:rotate-180" aria-hidden />
      </DisclosureButton>
      <DisclosurePanel as="ul" className="mt-1 flex flex-col gap-0.5 pl-7">
        {items.map((item) => (
          <li key={item.path}>
            <NavLink to={item.path} className={linkClass}>
              {item.name}
            </NavLink>
          </li>
        ))}
      </DisclosurePanel>
    </Disclosure>
  );
}

/** Collapsed: Settings opens to the right of the narrow bar (spec core §2). */
function SettingsFlyout({ items }: { items: SidebarItem[] }) {
  return (
    <Popover>
      <PopoverButton
        aria-label="Settings"
        className="flex w-full items-center justify-center rounded-md p-2 text-gray-500 hover:bg-gray-100 hover:text-gray-700"
      >
        <Settings className="size-5" aria-hidden />
      </PopoverButton>
      <PopoverPanel
        anchor={{ to: 'right start', gap: 8 }}
        className="z-40 w-56 rounded-lg border border-gray-200 bg-white p-2 shadow-xl"
      >
        {({ close }) => (
          <>
            <p className="px-3 py-1.5 text-xs font-semibold tracking-wide text-gray-500 uppercase">
              Settings
            </p>
            <ul className="flex flex-col gap-0.5">
              {items.map((item) => (
                <li key={item.path}>
                  <NavLink to={item.path} className={linkClass} onClick={() => close()}>
                    {item.name}
                  </NavLink>
                </li>
              ))}
            </ul>
          </>
        )}
      </PopoverPanel>
    </Popover>
  );
}
