import { Outlet, useLocation } from 'react-router';
import { ErrorBoundary } from '../../components/error-boundary/error-boundary';
import { PageSkeleton } from '../../components/skeleton/skeleton';
import { HIDE_ERROR_STACK } from '../errors/route-error-screen';
import { RequireSignedIn, useCurrentUser } from '../../features/auth';
import { Sidebar } from './sidebar';
import { TopBar, TopBarSlotProvider } from './top-bar';

/** Full-page skeleton shown until the user is loaded (spec core §2 "Sidebar"). */
function ShellSkeleton() {
  return (
    <div className="flex min-h-screen min-w-[800px]">
      <div className="w-56 shrink-0 border-r border-gray-200 bg-white" />
      <PageSkeleton lines={12} className="flex-1" />
    </div>
  );
}

/** Sidebar plus content area; every page body sits behind an error boundary. */
export function ShellLayout() {
  const { status } = useCurrentUser();
  if (status === 'loading') return <ShellSkeleton />;
  return (
    <RequireSignedIn>
      <Shell />
    </RequireSignedIn>
  );
}

function Shell() {
  const location = useLocation();
  return (
    <div className="flex min-h-screen min-w-[800px] bg-gray-50">
      {/* The column spans the whole page however long it is; the sidebar sticks inside it. */}
      <div className="shrink-0 border-r border-gray-200 bg-white">
        <Sidebar />
      </div>
      <TopBarSlotProvider>
        {(setSlot) => (
          <div className="flex min-w-0 flex-1 flex-col">
            <TopBar slotRef={setSlot} />
            <main className="min-w-0 flex-1 p-4">
              {/* Navigating (path or query) clears a caught error. */}
              <ErrorBoundary resetKeys={[location.pathname, location.search]} hideStack={HIDE_ERROR_STACK}>
                <Outlet />
              </ErrorBoundary>
            </main>
          </div>
        )}
      </TopBarSlotProvider>
    </div>
  );
}
