import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Popover } from './popover';

// The Popover primitive: a button and its panel, the panel's name, Escape, a click outside and
// close() from inside shutting it, with the focus back on the trigger.

afterEach(cleanup);

async function settle() {
  await act(async () => {
    await new Promise((resolve) => setTimeout(resolve, 0));
  });
}

function renderPopover(onPick = vi.fn()) {
  render(
    <div>
      <p>Outside</p>
      <Popover trigger="Options" panelLabel="Options panel" placement="bottom end">
        {({ close }) => (
          <button
            type="button"
            onClick={() => {
              onPick();
              close();
            }}
          >
            Pick
          </button>
        )}
      </Popover>
    </div>,
  );
  return screen.getByRole('button', { name: 'Options' });
}

async function open(trigger: HTMLElement) {
  trigger.focus();
  fireEvent.click(trigger);
  await settle();
  return screen.findByRole('button', { name: 'Pick' });
}

describe('Popover', () => {
  it('opens a named panel from its button, which says it is expanded', async () => {
    const trigger = renderPopover();
    expect(trigger.getAttribute('aria-expanded')).toBe('false');
    expect(screen.queryByRole('button', { name: 'Pick' })).toBeNull();
    await open(trigger);
    expect(trigger.getAttribute('aria-expanded')).toBe('true');
    expect(
      screen.getByLabelText('Options panel').contains(screen.getByRole('button', { name: 'Pick' })),
    ).toBe(true);
  });

  it('closes on Escape and puts the focus back on the trigger', async () => {
    const trigger = renderPopover();
    const pick = await open(trigger);
    pick.focus();
    fireEvent.keyDown(pick, { key: 'Escape' });
    await settle();
    expect(screen.queryByRole('button', { name: 'Pick' })).toBeNull();
    expect(trigger.getAttribute('aria-expanded')).toBe('false');
    expect(document.activeElement).toBe(trigger);
  });

  it('closes on a click outside', async () => {
    const trigger = renderPopover();
    await open(trigger);
    const outside = screen.getByText('Outside');
    fireEvent.pointerDown(outside);
    fireEvent.mouseDown(outside);
    fireEvent.pointerUp(outside);
    fireEvent.mouseUp(outside);
    fireEvent.click(outside);
    await settle();
    expect(screen.queryByRole('button', { name: 'Pick' })).toBeNull();
    expect(trigger.getAttribute('aria-expanded')).toBe('false');
  });

  it("closes from inside through close(), after the content's own action, focus back on the trigger", async () => {
    const onPick = vi.fn();
    const trigger = renderPopover(onPick);
    fireEvent.click(await open(trigger));
    await settle();
    expect(onPick).toHaveBeenCalledTimes(1);
    expect(screen.queryByRole('button', { name: 'Pick' })).toBeNull();
    expect(document.activeElement).toBe(trigger);
  });
});
