import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { X } from 'lucide-react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { IconButton } from '../icon-button/icon-button';
import { Button, BUTTON_VARIANTS } from './button';

afterEach(cleanup);

describe('Button', () => {
  it('is a plain button unless it says submit', () => {
    render(
      <form onSubmit={(event) => event.preventDefault()}>
        <Button>Cancel</Button>
        <Button type="submit" variant="primary">
          Create
        </Button>
      </form>,
    );
    expect(screen.getByRole('button', { name: 'Cancel' }).getAttribute('type')).toBe('button');
    expect(screen.getByRole('button', { name: 'Create' }).getAttribute('type')).toBe('submit');
  });

  it('draws each variant differently, secondary by default', () => {
    const classes = BUTTON_VARIANTS.map((variant) => {
      render(<Button variant={variant}>{variant}</Button>);
      return screen.getByRole('button', { name: variant }).className;
    });
    expect(new Set(classes).size).toBe(BUTTON_VARIANTS.length);
    render(<Button>Default</Button>);
    expect(screen.getByRole('button', { name: 'Default' }).className).toBe(classes[1]);
    expect(classes[0]).toContain('bg-blue-600');
    expect(classes[2]).toContain('text-red-700');
  });

  it('does not fire while disabled', () => {
    const onClick = vi.fn();
    render(
      <Button variant="primary" disabled onClick={onClick}>
        Save
      </Button>,
    );
    const button = screen.getByRole('button', { name: 'Save' }) as HTMLButtonElement;
    expect(button.disabled).toBe(true);
    expect(button.className).toContain('disabled:opacity-60');
    fireEvent.click(button);
    expect(onClick).not.toHaveBeenCalled();
  });

  it('passes other attributes through', () => {
    render(
      <Button form="create-incident-form" aria-pressed="true">
        Toggle
      </Button>,
    );
    const button = screen.getByRole('button', { name: 'Toggle' });
    expect(button.getAttribute('form')).toBe('create-incident-form');
    expect(button.getAttribute('aria-pressed')).toBe('true');
  });
});

describe('IconButton', () => {
  it('is named by its aria-label, not its icon', () => {
    const onClick = vi.fn();
    render(
      <IconButton aria-label="Close" onClick={onClick}>
        <X aria-hidden className="size-4" />
      </IconButton>,
    );
    fireEvent.click(screen.getByRole('button', { name: 'Close' }));
    expect(onClick).toHaveBeenCalledOnce();
  });
});
