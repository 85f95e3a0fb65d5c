import { Menu, MenuButton, MenuItem, MenuItems, MenuSeparator } from '@headlessui/react';
import { Download, LogOut, Plug, UserRound } from 'lucide-react';
import { lazy, Suspense, useState } from 'react';
import { Link, useLocation } from 'react-router';
import { Avatar } from '../../components/avatar/avatar';
import { signOut, useCurrentUser } from '../../features/auth';
import { KubeconfigDialog } from './kubeconfig-dialog';
import { FRONTEND_VERSION, useBackendVersion } from './versions';

// Loaded on first use: the token dialogs stay out of the shell's first download.
const CreateTokenFlow = lazy(async () => ({
  default: (await import('../../features/tokens/components/create-token-flow')).CreateTokenFlow,
}));

const itemClass =
  'flex w-full items-center gap-2 rounded-md px-3 py-1.5 text-left text-sm text-gray-700 data-focus:bg-gray-100';

/** The local user menu of the top bar (spec core §2 "Page shell"). */
export function UserMenu() {
  const { user } = useCurrentUser();
  const location = useLocation();
  const backendVersion = useBackendVersion();
  const [mcpOpen, setMcpOpen] = useState(false);
  const [kubeconfigOpen, setKubeconfigOpen] = useState(false);
  const name = user?.name ?? '';

  return (
    <>
      <Menu as="div" className="relative">
        <MenuButton aria-label="User menu" className="rounded-full p-0.5 hover:ring-2 hover:ring-gray-200">
          <Avatar name={name} src={user?.avatar} size="sm" />
        </MenuButton>
        <MenuItems
          anchor="bottom end"
          className="z-40 mt-2 w-64 rounded-lg border border-gray-200 bg-white p-1 shadow-xl focus:outline-none"
        >
          <p className="px-3 py-2 text-sm text-gray-900">Hi {name}</p>
          <MenuSeparator className="my-1 h-px bg-gray-200" />
          <MenuItem>
            <Link to="/profile-settings" className={itemClass}>
              <UserRound className="size-4" aria-hidden />
              Your Profile
            </Link>
          </MenuItem>
          <MenuItem>
            <button type="button" className={itemClass} onClick={() => setKubeconfigOpen(true)}>
              <Download className="size-4" aria-hidden />
              Download kubeconfig
            </button>
          </MenuItem>
          <MenuItem>
            <button type="button" className={itemClass} onClick={() => setMcpOpen(true)}>
              <Plug className="size-4" aria-hidden />
              Setup MCP
            </button>
          </MenuItem>
          <MenuSeparator className="my-1 h-px bg-gray-200" />
          <p className="px-3 py-1 text-xs text-gray-500">
            frontend version {FRONTEND_VERSION}, backend version {backendVersion}
          </p>
          <MenuSeparator className="my-1 h-px bg-gray-200" />
          <MenuItem>
            <button
              type="button"
              className={itemClass}
              onClick={() => void signOut(`${location.pathname}${location.search}`)}
            >
              <LogOut className="size-4" aria-hidden />
              Sign out
            </button>
          </MenuItem>
        </MenuItems>
      </Menu>
      <KubeconfigDialog open={kubeconfigOpen} onClose={() => setKubeconfigOpen(false)} />
      {mcpOpen && (
        // Mounted only while open: closing forgets the token, which is shown only once.
        <Suspense fallback={null}>
          <CreateTokenFlow open preset="mcp" onClose={() => setMcpOpen(false)} />
        </Suspense>
      )}
    </>
  );
}
