import { useIsFetching, useQueryClient } from '@tanstack/react-query';
import clsx from 'clsx';
import { RefreshCw } from 'lucide-react';
import { createContext, useContext, useState, type ReactNode } from 'react';
import { createPortal } from 'react-dom';
import { useMatches } from 'react-router';
import { IconButton, iconButtonClasses } from '../../components/icon-button/icon-button';
import { PreferencesPopover } from '../../components/preferences-popover/preferences-popover';
import { HelpMenu } from './help-menu';
import { UserMenu } from './user-menu';
import { NotificationBell } from '../../features/notifications/components/notification-bell';

/** What a route declares in its `handle` for the shell. */
export interface RouteHandle {
  title?: string;
  /** Whether the top bar offers the refresh button. Default true. */
  refresh?: boolean;
}

function isRouteHandle(value: unknown): value is RouteHandle {
  return value !== null && typeof value === 'object';
}

/** The innermost route's handle. */
function useRouteHandle(): RouteHandle {
  const matches = useMatches();
  for (let index = matches.length - 1; index >= 0; index -= 1) {
    const handle = matches[index]?.handle;
    if (isRouteHandle(handle) && handle.title) return handle;
  }
  return {};
}

const ExtraSlotContext = createContext<HTMLElement | null>(null);

/** Renders its children into the top bar's extra-content area (spec core §2 "Page shell"). */
export function TopBarExtra({ children }: { children: ReactNode }) {
  const slot = useContext(ExtraSlotContext);
  return slot ? createPortal(children, slot) : null;
}

/** Holds the extra-content element so pages below can portal into it. */
export function TopBarSlotProvider({
  children,
}: {
  children(setSlot: (element: HTMLElement | null) => void): ReactNode;
}) {
  const [slot, setSlot] = useState<HTMLElement | null>(null);
  return <ExtraSlotContext.Provider value={slot}>{children(setSlot)}</ExtraSlotContext.Provider>;
}

/** Refetches the page's queries; spins while any query is loading. */
function RefreshButton() {
  const queryClient = useQueryClient();
  const fetching = useIsFetching() > 0;
  return (
    <IconButton
      size="md"
      aria-label="Refresh"
      aria-busy={fetching}
      onClick={() => void queryClient.refetchQueries({ type: 'active' })}
    >
      <RefreshCw className={clsx('size-5', fetching && 'animate-spin')} aria-hidden />
    </IconButton>
  );
}

/** The sticky top bar: title, extra content, refresh, notifications, preferences, help, user. */
export function TopBar({ slotRef }: { slotRef(element: HTMLElement | null): void }) {
  const handle = useRouteHandle();
  return (
    <header className="sticky top-0 z-30 flex h-14 items-center gap-3 border-b border-gray-200 bg-white px-4">
      <h1 className="truncate text-lg font-semibold text-gray-900">{handle.title}</h1>
      <div ref={slotRef} className="flex min-w-0 flex-1 items-center gap-2" />
      {handle.refresh !== false && <RefreshButton />}
      <NotificationBell className={iconButtonClasses({ size: 'md' })} />
      <PreferencesPopover />
      <HelpMenu />
      <UserMenu />
    </header>
  );
}
