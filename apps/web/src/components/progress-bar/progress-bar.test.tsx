import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { clampProgress, ProgressBar, progressColor } from './progress-bar';

afterEach(cleanup);

function fillOf(label: string): HTMLElement {
  return screen.getByRole('progressbar', { name: label }).firstElementChild as HTMLElement;
}

describe('ProgressBar', () => {
  it('clamps the drawn value between 5 and 100', () => {
    expect(clampProgress(0)).toBe(5);
    expect(clampProgress(-20)).toBe(5);
    expect(clampProgress(50)).toBe(50);
    expect(clampProgress(150)).toBe(100);
    render(
      <>
        <ProgressBar value={1} label="low" />
        <ProgressBar value={240} label="over" />
      </>,
    );
    expect(fillOf('low').style.width).toBe('5%');
    expect(fillOf('over').style.width).toBe('100%');
  });

  it('is green above 0, orange above 75 and red above 90', () => {
    expect(progressColor(0)).toBe('grey');
    expect(progressColor(1)).toBe('green');
    expect(progressColor(75)).toBe('green');
    expect(progressColor(76)).toBe('orange');
    expect(progressColor(90)).toBe('orange');
    expect(progressColor(91)).toBe('red');
    render(
      <>
        <ProgressBar value={40} label="cpu" showValue />
        <ProgressBar value={80} label="memory" />
        <ProgressBar value={95} label="disk" />
      </>,
    );
    expect(fillOf('cpu').className).toContain('bg-green-500');
    expect(fillOf('memory').className).toContain('bg-orange-400');
    expect(fillOf('disk').className).toContain('bg-red-500');
    expect(screen.getByRole('progressbar', { name: 'cpu' }).getAttribute('aria-valuenow')).toBe('40');
    expect(screen.getByText('40%')).toBeTruthy();
  });
});
