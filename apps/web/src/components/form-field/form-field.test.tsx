import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { Input } from '../input/input';
import { SearchInput } from '../search-input/search-input';
import { Textarea } from '../textarea/textarea';
import { FormField } from './form-field';

afterEach(cleanup);

describe('FormField', () => {
  it('names its control with the label', () => {
    render(
      <FormField label="Title">
        <Input />
      </FormField>,
    );
    const input = screen.getByRole('textbox', { name: 'Title' });
    expect(input.getAttribute('aria-invalid')).toBeNull();
    expect(input.getAttribute('aria-describedby')).toBeNull();
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('shows the error, marks the control invalid and ties the error to it', () => {
    render(
      <FormField label="Title" error="Title is required">
        <Input />
      </FormField>,
    );
    const input = screen.getByRole('textbox', { name: 'Title' });
    expect(input.getAttribute('aria-invalid')).toBe('true');
    const error = screen.getByRole('alert');
    expect(error.textContent).toBe('Title is required');
    expect(input.getAttribute('aria-describedby')).toBe(error.id);
  });

  it('describes the control with the hint and the error, hint first', () => {
    render(
      <FormField label="Labels" hint="A JSON object" error="Labels must be valid JSON">
        <Textarea />
      </FormField>,
    );
    const textarea = screen.getByRole('textbox', { name: 'Labels' });
    const ids = textarea.getAttribute('aria-describedby')!.split(' ');
    expect(ids.map((id) => document.getElementById(id)?.textContent)).toEqual([
      'A JSON object',
      'Labels must be valid JSON',
    ]);
  });

  it('keeps the required mark out of the label and sets aria-required', () => {
    render(
      <FormField label="Check name" required>
        <Input />
      </FormField>,
    );
    const input = screen.getByRole('textbox', { name: 'Check name' });
    expect(input.getAttribute('aria-required')).toBe('true');
    expect(screen.getByText('*').getAttribute('aria-hidden')).toBe('true');
  });

  it('wires a text area and a search box the same way, and uses a given id', () => {
    render(
      <>
        <FormField label="Severity" error="Please select incident severity" id="severity">
          <Textarea />
        </FormField>
        <FormField label="Find incident">
          <SearchInput />
        </FormField>
      </>,
    );
    const area = screen.getByRole('textbox', { name: 'Severity' });
    expect(area.id).toBe('severity');
    expect(area.getAttribute('aria-invalid')).toBe('true');
    expect(area.getAttribute('aria-describedby')).toBe('severity-error');
    expect(screen.getByRole('searchbox', { name: 'Find incident' })).toBeTruthy();
  });

  it("lets a control's own aria attributes win", () => {
    render(
      <FormField label="Name" error="Name is required">
        <Input aria-describedby="elsewhere" aria-invalid={false} />
      </FormField>,
    );
    const input = screen.getByRole('textbox', { name: 'Name' });
    expect(input.getAttribute('aria-describedby')).toBe('elsewhere');
    expect(input.getAttribute('aria-invalid')).toBe('false');
  });
});
