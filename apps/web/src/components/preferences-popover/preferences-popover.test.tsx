import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { MemoryRouter, useLocation } from 'react-router';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createPreferencesStore, type PreferencesStore } from '../../lib/preferences/preferences-store';
import { PreferencesProvider } from '../../lib/preferences/use-preferences';
import { chooseMenuOption, selectMenuOptions, selectMenuText } from '../select-menu/select-menu-test-helpers';
import { PreferencesPopover } from './preferences-popover';

function Query() {
  return <output aria-label="query">{useLocation().search}</output>;
}

let store: PreferencesStore;
beforeEach(() => {
  window.localStorage.clear();
  store = createPreferencesStore(window.localStorage);
});
afterEach(cleanup);

async function openPopover(url = '/') {
  render(
    <PreferencesProvider store={store}>
      <MemoryRouter initialEntries={[url]}>
        <PreferencesPopover />
        <Query />
      </MemoryRouter>
    </PreferencesProvider>,
  );
  fireEvent.click(screen.getByRole('button', { name: 'Preferences' }));
  await screen.findByRole('switch', { name: 'Show hidden components' });
}

describe('PreferencesPopover', () => {
  it('shows hidden components by default and stores the choice in the URL', async () => {
    await openPopover();
    const toggle = screen.getByRole('switch', { name: 'Show hidden components' });
    expect(toggle.getAttribute('aria-checked')).toBe('true');
    fireEvent.click(toggle);
    expect(screen.getByRole('status', { name: 'query' }).textContent).toBe('?showHiddenComponents=no');
    expect(screen.getByRole('switch', { name: 'Show hidden components' }).getAttribute('aria-checked')).toBe(
      'false',
    );
  });

  it('hides deleted configs by default and remembers the choice', async () => {
    await openPopover();
    const toggle = screen.getByRole('switch', { name: 'Show deleted configs' });
    expect(toggle.getAttribute('aria-checked')).toBe('false');
    fireEvent.click(toggle);
    expect(store.getSnapshot().showDeletedConfigs).toBe(true);
    expect(JSON.parse(window.localStorage.getItem('opsdeck.preferences') ?? '{}').showDeletedConfigs).toBe(
      true,
    );
  });

  it('slides the card width between 250 and 768 in steps of 2 from 554', async () => {
    await openPopover();
    const slider = screen.getByRole('slider', { name: 'Card Width' }) as HTMLInputElement;
    expect([slider.min, slider.max, slider.step, slider.value]).toEqual(['250', '768', '2', '554']);
    fireEvent.change(slider, { target: { value: '600' } });
    expect(store.getSnapshot().cardWidth).toBe(600);
    expect(screen.getByText('600px')).toBeTruthy();
  });

  it('offers the date/time formats with timestamp as default', async () => {
    await openPopover();
    expect(await selectMenuOptions(document.body, 'Date/Time Format')).toEqual([
      'Short (relative)',
      'Medium',
      'Full',
      'Timestamp',
    ]);
    expect(selectMenuText(document.body, 'Date/Time Format')).toBe('Timestamp');
    await chooseMenuOption(document.body, 'Date/Time Format', 'Medium');
    expect(store.getSnapshot().dateTimeFormat).toBe('medium');
  });

  // 400 options rendered in jsdom: seconds on an idle machine, over 20 s on a loaded one.
  it('offers the browser default, then every zone sorted by UTC offset', { timeout: 90_000 }, async () => {
    await openPopover();
    const options = await selectMenuOptions(document.body, 'Timezone');
    expect(options[0]).toBe('Browser default');
    expect(selectMenuText(document.body, 'Timezone')).toBe('Browser default');
    expect(options.length).toBeGreaterThan(300);
    expect(options[1]).toMatch(/^\(UTC-1[12]:00\)/);
    expect(options[options.length - 1]).toMatch(/^\(UTC\+1[34]:00\)/);
    await chooseMenuOption(document.body, 'Timezone', /Europe\/Paris/);
    expect(store.getSnapshot().timezone).toBe('Europe/Paris');
  });

  it('keeps a stored zone the runtime lists under another name', async () => {
    store.update({ timezone: 'Asia/Kolkata' });
    await openPopover();
    expect(selectMenuText(document.body, 'Timezone')).toMatch(/Asia\/Kolkata/);
  });
});
