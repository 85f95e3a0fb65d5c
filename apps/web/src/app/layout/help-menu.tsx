import { Menu, MenuButton, MenuItem, MenuItems } from '@headlessui/react';
import { CircleHelp, ExternalLink } from 'lucide-react';
import { iconButtonClasses } from '../../components/icon-button/icon-button';

/** External documentation of the tools the console builds on (spec core §2: the help menu). */
export const HELP_LINKS: readonly { label: string; href: string }[] = [
  { label: 'Kubernetes documentation', href: 'https://kubernetes.io/docs/home/' },
  { label: 'PostgREST API reference', href: 'https://docs.postgrest.org/en/stable/references/api.html' },
];

export function HelpMenu() {
  return (
    <Menu as="div" className="relative">
      <MenuButton aria-label="Help" className={iconButtonClasses({ size: 'md' })}>
        <CircleHelp className="size-5" aria-hidden />
      </MenuButton>
      <MenuItems
        anchor="bottom end"
        className="z-40 mt-2 w-64 rounded-lg border border-gray-200 bg-white p-1 shadow-xl focus:outline-none"
      >
        {HELP_LINKS.map((link) => (
          <MenuItem key={link.href}>
            <a
              href={link.href}
              target="_blank"
              rel="noreferrer"
              className="flex items-center justify-between gap-2 rounded-md px-3 py-1.5 text-sm text-gray-700 data-focus:bg-gray-100"
            >
              {link.label}
              <ExternalLink className="size-3.5 text-gray-400" aria-hidden />
            </a>
          </MenuItem>
        ))}
      </MenuItems>
    </Menu>
  );
}
