import { cleanup, render, screen } from '@testing-library/react';
import { createMemoryRouter, matchRoutes, Outlet, RouterProvider, type RouteObject } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { MAIN_ITEMS, SETTINGS_ITEMS } from '../layout/sidebar-items';
import { ShellLayout } from '../layout/shell-layout';
import { appRoutes } from '../route-table';
import { NOT_FOUND_TITLE } from './not-found-page';
import { withRouteFallbacks } from './route-fallbacks';

function FakeShell() {
  return (
    <div>
      <nav aria-label="Sidebar">sidebar</nav>
      <main>
        <Outlet />
      </main>
    </div>
  );
}

function Exploding(): never {
  throw new Error('page exploded');
}

const table: RouteObject[] = [
  { path: 'login', element: <p>login page</p> },
  {
    element: <FakeShell />,
    children: [
      { path: 'health', element: <p>health page</p> },
      { path: 'broken', element: <Exploding /> },
    ],
  },
];

function renderAt(path: string) {
  const router = createMemoryRouter(withRouteFallbacks(table, FakeShell), { initialEntries: [path] });
  return render(<RouterProvider router={router} />);
}

beforeEach(() => vi.spyOn(console, 'error').mockImplementation(() => {}));
afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

describe('withRouteFallbacks', () => {
  it('shows the not-found page inside the shell for an unknown address, with a way back', () => {
    renderAt('/no/such/page');
    expect(screen.getByRole('navigation', { name: 'Sidebar' })).toBeTruthy();
    expect(screen.getByRole('heading', { name: NOT_FOUND_TITLE })).toBeTruthy();
    expect(screen.getByText('/no/such/page')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Go to the dashboard' }).getAttribute('href')).toBe('/');
  });

  it('leaves known pages alone', () => {
    renderAt('/health');
    expect(screen.getByText('health page')).toBeTruthy();
    expect(screen.queryByRole('heading', { name: NOT_FOUND_TITLE })).toBeNull();
  });

  it("shows 'Something went wrong' for a page that throws, keeping the shell", () => {
    renderAt('/broken');
    expect(screen.getByRole('navigation', { name: 'Sidebar' })).toBeTruthy();
    const alert = screen.getByRole('alert');
    expect(alert.textContent).toContain('Something went wrong');
    expect(alert.textContent).toContain('page exploded');
    expect(screen.queryByText(/Hey developer/)).toBeNull();
  });
});

/** The route a path lands on in the real table; undefined when only the catch-all takes it. */
const routed = withRouteFallbacks(appRoutes, ShellLayout);
function landsOnAPage(path: string): boolean {
  const matches = matchRoutes(routed, path);
  return Boolean(matches && matches[matches.length - 1]?.route.path !== '*');
}

// Every link in the app's source that names a path: `to="/x"`, `href="/x"`, `to={`/x/${id}`}`.
const SOURCES = import.meta.glob(['../../**/*.tsx', '../../**/*.ts', '!../../**/*.test.*'], {
  query: '?raw',
  import: 'default',
  eager: true,
}) as Record<string, string>;
const LINK_PATTERN = /\b(?:to|href|navigate\()\s*[=(]?\s*\{?\s*(["'`])(\/[^"'`\s]*)\1/g;

function linkedPaths(): { file: string; path: string }[] {
  const found: { file: string; path: string }[] = [];
  for (const [file, text] of Object.entries(SOURCES)) {
    for (const match of text.matchAll(LINK_PATTERN)) {
      const raw = match[2];
      if (raw.startsWith('/api/') || raw.startsWith('//')) continue;
      // Template parts stand for one segment each; the query and hash do not route.
      const path = raw.replace(/\$\{[^}]*\}/g, 'x').replace(/[?#].*$/, '');
      if (path.includes('$')) continue;
      found.push({ file, path });
    }
  }
  return found;
}

describe('links of the app', () => {
  it('every sidebar entry and the bell lead to a page of the route table', () => {
    const paths = [...MAIN_ITEMS, ...SETTINGS_ITEMS].map((item) => item.path).concat('/notifications');
    expect(paths.filter((path) => !landsOnAPage(path))).toEqual([]);
  });

  it('every path written in a link of the source leads to a page of the route table', () => {
    const links = linkedPaths();
    expect(links.length).toBeGreaterThan(10);
    expect(links.filter((link) => !landsOnAPage(link.path))).toEqual([]);
  });

  it('an unknown path does not count as a page', () => {
    expect(landsOnAPage('/no/such/page')).toBe(false);
  });
});
