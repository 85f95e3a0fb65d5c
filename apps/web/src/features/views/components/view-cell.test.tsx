import { VIEW_COLUMN_TYPES, type ViewColumn, type ViewColumnType } from '@opsdeck/contracts';
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { ViewCell } from './view-cell';

afterEach(cleanup);

const column = (type: ViewColumnType, extra: Partial<ViewColumn> = {}): ViewColumn => ({
  name: `c_${type}`,
  type,
  ...extra,
});

const SAMPLES: Record<ViewColumnType, { value: unknown; text: RegExp }> = {
  string: { value: 'api-1', text: /^api-1$/ },
  number: { value: 12345, text: /^12,345 cores$/ },
  boolean: { value: true, text: /^Yes$/ },
  datetime: { value: '2026-01-02T03:04:05Z', text: /2026/ },
  duration: { value: 90_000, text: /1m/ },
  health: { value: 'unhealthy', text: /unhealthy/ },
  status: { value: 'Running', text: /^Running$/ },
  bytes: { value: 2048, text: /2(\.00)? ?KB/i },
  decimal: { value: 1.5, text: /^1\.50$/ },
  gauge: { value: 8, text: /8/ },
  url: { value: 'https://example.com/a', text: /example\.com/ },
  badge: { value: 'check', text: /^check$/ },
};

describe('ViewCell', () => {
  it.each(VIEW_COLUMN_TYPES)('renders a %s value', (type) => {
    const sample = SAMPLES[type];
    const { container } = render(
      <ViewCell column={column(type, type === 'number' ? { unit: 'cores' } : {})} value={sample.value} />,
    );
    expect(container.textContent).toMatch(sample.text);
  });

  it('draws health as a coloured dot, a gauge as a bar and a link only for http(s)', () => {
    render(<ViewCell column={column('health')} value="healthy" />);
    expect(screen.getByRole('img', { name: 'healthy' })).toBeTruthy();
    cleanup();
    render(<ViewCell column={column('gauge', { gauge: { min: 0, max: 16 } })} value={8} />);
    expect(screen.getByRole('progressbar')).toBeTruthy();
    cleanup();
    render(<ViewCell column={column('url')} value="javascript:alert(1)" />);
    expect(screen.queryByRole('link')).toBeNull();
    cleanup();
    render(<ViewCell column={column('url')} value="/catalog/1" />);
    expect(screen.getByRole('link').getAttribute('href')).toBe('/catalog/1');
  });

  it('shows a dash for an empty value', () => {
    const { container } = render(<ViewCell column={column('number')} value={null} />);
    expect(container.textContent).toBe('-');
  });
});
