import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { useState } from 'react';
import { afterEach, beforeEach, describe, expect, it, onTestFinished, vi } from 'vitest';
import { FormField } from '../form-field/form-field';
import { SelectMenu, type SelectMenuOption } from './select-menu';

const OPTIONS: SelectMenuOption[] = [
  { value: 'low', label: 'Low' },
  { value: 'medium', label: 'Medium' },
  { value: 'high', label: 'High' },
  { value: 'critical', label: 'Critical', disabled: true },
];

function Harness({ onChange }: { onChange?: (value: string) => void }) {
  const [value, setValue] = useState('low');
  return (
    <FormField label="Severity" hint="How bad it is">
      <SelectMenu
        options={OPTIONS}
        value={value}
        onChange={(next) => {
          setValue(next);
          onChange?.(next);
        }}
      />
    </FormField>
  );
}

beforeEach(() => {
  // jsdom has no ResizeObserver; Headless UI watches the button's size while the list is open.
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
  vi.unstubAllGlobals();
});

async function flush() {
  await act(async () => {
    await new Promise((resolve) => setTimeout(resolve, 0));
  });
}

describe('SelectMenu', () => {
  it('is a button named by its field, described by the hint, showing the chosen option', () => {
    render(<Harness />);
    const button = screen.getByRole('button', { name: /Severity/ });
    expect(button.textContent).toContain('Low');
    expect(button.getAttribute('aria-haspopup')).toBe('listbox');
    const hint = screen.getByText('How bad it is');
    expect(button.getAttribute('aria-describedby')).toBe(hint.id);
  });

  it('opens a listbox of options with the keyboard and picks with Enter', async () => {
    const onChange = vi.fn();
    render(<Harness onChange={onChange} />);
    const button = screen.getByRole('button', { name: /Severity/ });
    button.focus();
    fireEvent.keyDown(button, { key: 'ArrowDown' });
    await flush();
    const listbox = screen.getByRole('listbox');
    expect(screen.getAllByRole('option').map((option) => option.textContent)).toEqual([
      'Low',
      'Medium',
      'High',
      'Critical',
    ]);
    expect(screen.getByRole('option', { name: 'Low' }).getAttribute('aria-selected')).toBe('true');
    expect(screen.getByRole('option', { name: 'Critical' }).getAttribute('aria-disabled')).toBe('true');
    fireEvent.keyDown(listbox, { key: 'ArrowDown' });
    await flush();
    fireEvent.keyDown(listbox, { key: 'Enter' });
    await flush();
    expect(onChange).toHaveBeenCalledWith('medium');
    expect(screen.queryByRole('listbox')).toBeNull();
    expect(button.textContent).toContain('Medium');
  });

  it('moves to an option by typing its first letters', async () => {
    // Type-ahead matches an option's innerText, which jsdom lacks: its text content stands in.
    const innerText = Object.getOwnPropertyDescriptor(HTMLElement.prototype, 'innerText');
    Object.defineProperty(HTMLElement.prototype, 'innerText', {
      configurable: true,
      get(this: HTMLElement) {
        return this.textContent;
      },
    });
    onTestFinished(() => {
      if (innerText) Object.defineProperty(HTMLElement.prototype, 'innerText', innerText);
      else delete (HTMLElement.prototype as { innerText?: string }).innerText;
    });
    const onChange = vi.fn();
    render(<Harness onChange={onChange} />);
    const button = screen.getByRole('button', { name: /Severity/ });
    fireEvent.keyDown(button, { key: 'ArrowDown' });
    await flush();
    const listbox = screen.getByRole('listbox');
    fireEvent.keyDown(listbox, { key: 'h' });
    await flush();
    expect(listbox.getAttribute('aria-activedescendant')).toBe(
      screen.getByRole('option', { name: 'High' }).id,
    );
    fireEvent.keyDown(listbox, { key: 'Enter' });
    await flush();
    expect(onChange).toHaveBeenCalledWith('high');
  });

  it('closes with Escape without changing the value', async () => {
    const onChange = vi.fn();
    render(<Harness onChange={onChange} />);
    const button = screen.getByRole('button', { name: /Severity/ });
    fireEvent.keyDown(button, { key: 'ArrowDown' });
    await flush();
    fireEvent.keyDown(screen.getByRole('listbox'), { key: 'Escape' });
    await flush();
    expect(screen.queryByRole('listbox')).toBeNull();
    expect(onChange).not.toHaveBeenCalled();
  });

  it('takes an aria-label outside a field and shows the placeholder for an unknown value', () => {
    render(<SelectMenu aria-label="Group By" options={OPTIONS} value="none" onChange={() => {}} />);
    expect(screen.getByRole('button', { name: 'Group By' }).textContent).toContain('Select...');
  });
});
