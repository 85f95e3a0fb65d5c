import { cleanup, render, screen } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createPreferencesStore } from '../../lib/preferences/preferences-store';
import { PreferencesProvider } from '../../lib/preferences/use-preferences';
import { Age, FormattedDate } from './age';

beforeEach(() => window.localStorage.clear());
afterEach(cleanup);

function renderWithPreferences(
  node: ReactNode,
  timezone = 'UTC',
  dateTimeFormat: 'timestamp' | 'medium' = 'timestamp',
) {
  const store = createPreferencesStore(window.localStorage);
  store.update({ timezone, dateTimeFormat });
  return render(<PreferencesProvider store={store}>{node}</PreferencesProvider>);
}

describe('Age', () => {
  it('shows the relative age with the full timestamp as tooltip', () => {
    renderWithPreferences(
      <Age value="2026-11-18T09:00:00.000Z" now="2026-11-18T12:00:00.000Z" />,
      'Asia/Kolkata',
    );
    const time = screen.getByText('3h');
    expect(time.tagName).toBe('TIME');
    expect(time.getAttribute('title')).toBe('2026-11-18 14:30:00.000');
    expect(time.getAttribute('datetime')).toBe('2026-11-18T09:00:00.000Z');
  });

  it('renders nothing for the zero date', () => {
    const { container } = renderWithPreferences(<Age value="0001-01-01T00:00:00Z" />);
    expect(container.textContent).toBe('');
  });
});

describe('FormattedDate', () => {
  it("follows the user's format and zone", () => {
    renderWithPreferences(<FormattedDate value="2026-11-18T09:05:03.042Z" />, 'America/New_York');
    expect(screen.getByText('2026-11-18 04:05:03.042')).toBeTruthy();
  });

  it('accepts a format override', () => {
    renderWithPreferences(<FormattedDate value="2025-01-02T09:05:00.000Z" format="medium" />, 'UTC');
    expect(screen.getByText('Jan 02, 2025 9:05 AM')).toBeTruthy();
  });
});
