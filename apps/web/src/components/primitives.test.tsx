import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { useState } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { Checkbox } from './checkbox/checkbox';
import { Switch } from './switch/switch';
import { Tabs } from './tabs/tabs';
import { Tooltip } from './tooltip/tooltip';

afterEach(cleanup);

async function flush() {
  await act(async () => {
    await new Promise((resolve) => setTimeout(resolve, 0));
  });
}

describe('Switch', () => {
  function Harness() {
    const [on, setOn] = useState(false);
    return <Switch label="Hide Passing" checked={on} onChange={setOn} />;
  }

  it('is a switch named by its label that toggles on click and with Space', async () => {
    render(<Harness />);
    const toggle = screen.getByRole('switch', { name: 'Hide Passing' });
    expect(toggle.getAttribute('aria-checked')).toBe('false');
    fireEvent.click(toggle);
    await flush();
    expect(toggle.getAttribute('aria-checked')).toBe('true');
    fireEvent.keyUp(toggle, { key: ' ' });
    await flush();
    expect(toggle.getAttribute('aria-checked')).toBe('false');
  });
});

describe('Checkbox', () => {
  it('is a native checkbox named by its label', () => {
    render(<Checkbox label="Definition of done" defaultChecked={false} />);
    const box = screen.getByRole('checkbox', { name: 'Definition of done' });
    fireEvent.click(screen.getByText('Definition of done'));
    expect((box as HTMLInputElement).checked).toBe(true);
  });
});

describe('Tabs', () => {
  it('is a tab list whose arrows move the selection and show the named panel', async () => {
    render(
      <Tabs
        aria-label="Check detail"
        tabs={[
          { label: 'History', content: <p>history rows</p> },
          { label: 'Relationships', count: 3, content: <p>related things</p> },
        ]}
      />,
    );
    expect(screen.getByRole('tablist', { name: 'Check detail' })).toBeTruthy();
    const history = screen.getByRole('tab', { name: 'History' });
    expect(history.getAttribute('aria-selected')).toBe('true');
    expect(screen.getByRole('tabpanel', { name: 'History' }).textContent).toBe('history rows');
    history.focus();
    fireEvent.keyDown(history, { key: 'ArrowRight' });
    await flush();
    expect(screen.getByRole('tab', { name: /Relationships/ }).getAttribute('aria-selected')).toBe('true');
    expect(screen.getByRole('tabpanel', { name: /Relationships/ }).textContent).toBe('related things');
  });
});

describe('Tooltip', () => {
  it('shows on focus as a tooltip describing the trigger and hides with Escape', () => {
    render(
      <Tooltip content="2026-11-28 07:53:59.372">
        <button type="button">3m</button>
      </Tooltip>,
    );
    const trigger = screen.getByRole('button', { name: '3m' });
    expect(screen.queryByRole('tooltip')).toBeNull();
    fireEvent.focus(trigger);
    const tooltip = screen.getByRole('tooltip');
    expect(tooltip.textContent).toBe('2026-11-28 07:53:59.372');
    expect(trigger.getAttribute('aria-describedby')).toBe(tooltip.id);
    fireEvent.keyDown(trigger, { key: 'Escape' });
    expect(screen.queryByRole('tooltip')).toBeNull();
    expect(trigger.getAttribute('aria-describedby')).toBeNull();
  });

  it('shows while hovered', () => {
    render(
      <Tooltip content="Full timestamp">
        <button type="button">age</button>
      </Tooltip>,
    );
    fireEvent.mouseEnter(screen.getByRole('button', { name: 'age' }).parentElement!);
    expect(screen.getByRole('tooltip').textContent).toBe('Full timestamp');
  });
});
