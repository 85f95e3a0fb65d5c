import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { UptimeBar } from './uptime-bar';

afterEach(cleanup);

describe('UptimeBar', () => {
  it('is a meter whose value is the passed share', () => {
    render(<UptimeBar passed={3} failed={1} label="orders uptime" />);
    const meter = screen.getByRole('meter', { name: 'orders uptime' });
    expect(meter.getAttribute('aria-valuenow')).toBe('75');
    expect(meter.getAttribute('aria-valuetext')).toBe('3 passed, 1 failed');
    expect((meter.firstElementChild as HTMLElement).style.width).toBe('75%');
  });

  it('says when nothing ran', () => {
    render(<UptimeBar passed={0} failed={0} label="idle uptime" />);
    const meter = screen.getByRole('meter', { name: 'idle uptime' });
    expect(meter.getAttribute('aria-valuenow')).toBeNull();
    expect(meter.getAttribute('aria-valuetext')).toBe('no runs');
  });
});
