import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { MemoryRouter, useLocation } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createPreferencesStore } from '../../lib/preferences/preferences-store';
import { PreferencesProvider } from '../../lib/preferences/use-preferences';
import { readRecentRanges } from './recent-ranges';
import { TimeRangePicker, UrlTimeRangePicker } from './time-range-picker';

beforeEach(() => window.localStorage.clear());
afterEach(cleanup);

function Query() {
  return <output aria-label="query">{useLocation().search}</output>;
}
const query = () => new URLSearchParams(screen.getByRole('status', { name: 'query' }).textContent ?? '');

function renderUrlPicker(url: string, direction: 'past' | 'future' = 'past') {
  const store = createPreferencesStore(window.localStorage);
  store.update({ timezone: 'UTC' });
  return render(
    <PreferencesProvider store={store}>
      <MemoryRouter initialEntries={[url]}>
        <UrlTimeRangePicker direction={direction} />
        <Query />
      </MemoryRouter>
    </PreferencesProvider>,
  );
}

async function open() {
  fireEvent.click(screen.getByRole('button', { name: /^Time range/ }));
  return screen.findByRole('region', { name: 'Absolute time range' });
}

describe('TimeRangePicker', () => {
  it('keeps Submit disabled until both from and to are set, then stores the range', async () => {
    renderUrlPicker('/');
    const absolute = await open();
    const submit = within(absolute).getByRole('button', { name: 'Submit' }) as HTMLButtonElement;
    expect(submit.disabled).toBe(true);
    fireEvent.change(within(absolute).getByLabelText('From'), { target: { value: '2026-03-01T08:00' } });
    expect(submit.disabled).toBe(true);
    fireEvent.change(within(absolute).getByLabelText('To'), { target: { value: '2026-03-02T18:30' } });
    expect(submit.disabled).toBe(false);
    fireEvent.click(submit);
    expect(query().get('rangeType')).toBe('absolute');
    expect(query().get('from')).toBe('2026-03-01T08:00:00.000Z');
    expect(query().get('to')).toBe('2026-03-02T18:30:00.000Z');
    expect(
      screen.getByRole('button', { name: 'Time range: 2026-03-01 08:00 to 2026-03-02 18:30' }),
    ).toBeTruthy();
    expect(readRecentRanges()).toEqual([
      { type: 'absolute', from: '2026-03-01T08:00:00.000Z', to: '2026-03-02T18:30:00.000Z' },
    ]);
  });

  it('picks a day range on the calendar and offers recent ranges', async () => {
    renderUrlPicker('/');
    const absolute = await open();
    const grid = within(absolute).getByRole('grid');
    fireEvent.click(within(grid).getAllByRole('button', { name: /, 20\d\d$/ })[10]);
    const pressedFrom = within(grid).getAllByRole('button', { pressed: true });
    expect(pressedFrom).toHaveLength(1);
    expect((within(absolute).getByRole('button', { name: 'Submit' }) as HTMLButtonElement).disabled).toBe(
      true,
    );
    fireEvent.click(within(grid).getAllByRole('button', { name: /, 20\d\d$/ })[12]);
    expect((within(absolute).getByLabelText('From') as HTMLInputElement).value).toMatch(/T00:00$/);
    expect((within(absolute).getByLabelText('To') as HTMLInputElement).value).toMatch(/T23:59$/);
    fireEvent.click(within(absolute).getByRole('button', { name: 'Submit' }));
    const picked = query().get('from');
    expect(picked).toBeTruthy();

    fireEvent.click(screen.getByRole('button', { name: /^Time range/ }));
    const recent = await screen.findByRole('list', { name: 'Recent time ranges' });
    expect(within(recent).getAllByRole('button')).toHaveLength(1);
  });

  it('sets relative and mapped ranges and clears them from the URL', async () => {
    renderUrlPicker('/?timeRange=1h&other=1');
    await open();
    fireEvent.click(screen.getByRole('button', { name: 'Last 15 minutes' }));
    expect(query().get('rangeType')).toBe('relative');
    expect(query().get('range')).toBe('15m');
    expect(query().get('display')).toBe('Last 15 minutes');
    expect(screen.getByRole('button', { name: 'Time range: Last 15 minutes' })).toBeTruthy();

    await open();
    expect(screen.getByRole('button', { name: 'Last 15 minutes' }).getAttribute('aria-pressed')).toBe('true');
    fireEvent.click(screen.getByRole('button', { name: 'Yesterday' }));
    expect(query().get('rangeType')).toBe('mapped');
    expect(query().get('from')).toBe('now-1d/d');
    expect(query().get('to')).toBe('now-1d/d');

    await open();
    fireEvent.click(screen.getByRole('button', { name: 'Clear' }));
    expect([...query().keys()]).toEqual(['other']);
    expect(screen.getByRole('button', { name: 'Time range: Select time range' })).toBeTruthy();
  });

  it('offers every quick range in the past direction', async () => {
    renderUrlPicker('/');
    await open();
    const quick = screen.getByRole('region', { name: 'Quick ranges' });
    expect(
      within(quick)
        .getAllByRole('button')
        .map((button) => button.textContent),
    ).toEqual([
      'Yesterday',
      'Day before yesterday',
      'This day last week',
      'Previous week',
      'Previous month',
      'Previous year',
      'Today',
      'Today so far',
      'This week',
      'This week so far',
      'This month',
      'This month so far',
      'This year',
      'This year so far',
    ]);
    expect(
      within(screen.getByRole('region', { name: 'Relative time ranges' })).getAllByRole('button'),
    ).toHaveLength(16);
  });

  it("offers future ranges with 'Indefinitely'", async () => {
    const onChange = vi.fn();
    render(<TimeRangePicker value={undefined} onChange={onChange} direction="future" />);
    await open();
    expect(screen.queryByRole('region', { name: 'Quick ranges' })).toBeNull();
    expect(screen.getByRole('button', { name: 'Next 5 minutes' })).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Indefinitely' }));
    expect(onChange).toHaveBeenCalledWith({
      type: 'relative',
      range: 'indefinitely',
      display: 'Indefinitely',
    });
  });
});
