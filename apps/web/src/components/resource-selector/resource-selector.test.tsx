import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { useState } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { parseResourceQuery } from './parse-resource-query';
import { ResourceSelector, type ResourceOption } from './resource-selector';

function options(count: number): ResourceOption[] {
  return Array.from({ length: count }, (_, index) => ({
    id: `id-${index}`,
    name: `api-${index}`,
    type: 'Kubernetes::Pod',
  }));
}

function Harness({
  search,
  onPicked,
}: {
  search: (query: string) => Promise<ResourceOption[]>;
  onPicked?: (value: ResourceOption | null) => void;
}) {
  const [value, setValue] = useState<ResourceOption | null>(null);
  return (
    <ResourceSelector
      label="Config"
      search={search}
      value={value}
      onChange={(next) => {
        setValue(next);
        onPicked?.(next);
      }}
    />
  );
}

/** Lets the debounce fire and the search promise settle. */
async function settle(milliseconds: number) {
  await act(async () => {
    vi.advanceTimersByTime(milliseconds);
  });
  await act(async () => {});
}

beforeEach(() => {
  vi.useFakeTimers();
  // jsdom has no ResizeObserver; Headless UI's windowed list observes its container.
  vi.stubGlobal(
    'ResizeObserver',
    class {
      observe() {}
      unobserve() {}
      disconnect() {}
    },
  );
});
afterEach(() => {
  cleanup();
  vi.useRealTimers();
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
});

describe('parseResourceQuery', () => {
  it('splits key=value filters from free text', () => {
    expect(parseResourceQuery('name=api type=Kubernetes::Pod health=healthy,unhealthy')).toEqual({
      search: '',
      filters: { name: 'api', type: 'Kubernetes::Pod', health: 'healthy,unhealthy' },
    });
    expect(parseResourceQuery('  payments  db type=postgres ')).toEqual({
      search: 'payments db',
      filters: { type: 'postgres' },
    });
  });
});

describe('ResourceSelector', () => {
  it("shows the hint and 'Start typing to search' with no input", () => {
    render(<Harness search={vi.fn()} />);
    expect(screen.getByRole('combobox', { name: 'Config' })).toBeTruthy();
    expect(screen.getByText('name=..., type=... or health=healthy,unhealthy')).toBeTruthy();
    expect(screen.getByRole('status').textContent).toBe('Start typing to search');
  });

  it('debounces the search by 300 ms and only searches the last text', async () => {
    const search = vi.fn(async () => options(2));
    render(<Harness search={search} />);
    const input = screen.getByRole('combobox', { name: 'Config' });
    fireEvent.change(input, { target: { value: 'na' } });
    await settle(200);
    fireEvent.change(input, { target: { value: 'name=api' } });
    await settle(299);
    expect(search).not.toHaveBeenCalled();
    await settle(1);
    expect(search).toHaveBeenCalledTimes(1);
    expect(search).toHaveBeenCalledWith('name=api', expect.any(AbortSignal));
    expect(screen.getAllByRole('option').map((option) => option.textContent)).toEqual([
      'api-0Kubernetes::Pod',
      'api-1Kubernetes::Pod',
    ]);
  });

  it("says 'No options found' when nothing matches", async () => {
    render(<Harness search={async () => []} />);
    fireEvent.change(screen.getByRole('combobox', { name: 'Config' }), { target: { value: 'type=nothing' } });
    await settle(300);
    expect(screen.getByRole('status').textContent).toBe('No options found');
  });

  it('selects an option', async () => {
    const onPicked = vi.fn();
    render(<Harness search={async () => options(3)} onPicked={onPicked} />);
    fireEvent.change(screen.getByRole('combobox', { name: 'Config' }), { target: { value: 'api' } });
    await settle(300);
    // Headless UI selects on mouse down, before the input loses focus.
    fireEvent.mouseDown(screen.getByRole('option', { name: /api-1/ }));
    expect(onPicked).toHaveBeenCalledWith(expect.objectContaining({ id: 'id-1' }));
    expect((screen.getByRole('combobox', { name: 'Config' }) as HTMLInputElement).value).toBe('api-1');
  });

  it('renders only a window of the options past 20', async () => {
    // jsdom does no layout: give the scrolling list and its rows the heights a browser would.
    vi.spyOn(HTMLElement.prototype, 'clientHeight', 'get').mockImplementation(function (this: HTMLElement) {
      return this.getAttribute('role') === 'listbox' ? 288 : 0;
    });
    vi.spyOn(HTMLElement.prototype, 'offsetHeight', 'get').mockImplementation(function (this: HTMLElement) {
      return this.getAttribute('role') === 'option' ? 40 : 0;
    });
    vi.useRealTimers();
    render(<Harness search={async () => options(500)} />);
    fireEvent.change(screen.getByRole('combobox', { name: 'Config' }), { target: { value: 'api' } });
    const rendered = await screen.findAllByRole('option', undefined, { timeout: 2000 });
    expect(rendered.length).toBeGreaterThan(0);
    expect(rendered.length).toBeLessThan(60);
    expect(rendered[0].textContent).toContain('api-0');
  });

  it('renders every option up to 20', async () => {
    render(<Harness search={async () => options(20)} />);
    fireEvent.change(screen.getByRole('combobox', { name: 'Config' }), { target: { value: 'api' } });
    await settle(300);
    expect(screen.getAllByRole('option')).toHaveLength(20);
  });
});
