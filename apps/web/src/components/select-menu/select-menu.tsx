import { Listbox, ListboxButton, ListboxOption, ListboxOptions } from '@headlessui/react';
import clsx from 'clsx';
import { Check, ChevronDown } from 'lucide-react';
import { useEffect, useRef, type ReactNode } from 'react';
import { controlAttributes, useFormFieldControl } from '../form-field/form-field';
import { controlClasses } from '../input/control-classes';

export interface SelectMenuOption<T extends string = string> {
  value: T;
  /** Shown text; the value when absent. */
  label?: ReactNode;
  /** The text type-ahead matches and the button shows for a non-text label. */
  textValue?: string;
  disabled?: boolean;
}

export interface SelectMenuProps<T extends string = string> {
  options: readonly SelectMenuOption<T>[];
  value: T;
  onChange(value: T): void;
  /** Accessible name when no `FormField` or visible label names it. */
  'aria-label'?: string;
  /** Less vertical padding, for toolbars and filters. Default false. */
  compact?: boolean;
  disabled?: boolean;
  /** Submitted with a form under this name (a hidden input). */
  name?: string;
  /** Button text when the value matches no option. Default 'Select...'. */
  placeholder?: string;
  /** Classes of the button (width, for instance). */
  className?: string;
  id?: string;
  /**
   * Draws the list in a layer of its own, anchored under the button, so a scrolling container
   * (a modal's body) does not clip it. Default false (the list sits in the page's flow).
   */
  floating?: boolean;
}

/**
 * The styled single-choice select of the console, in place of a native `<select>`: a button and a
 * listbox (Headless UI) with the keyboard of a listbox (arrows, Home/End, Enter/Space, Escape) and
 * type-ahead (typing letters moves to the next option starting with them). Inside a `FormField`
 * the field's label names it and its hint and error describe it.
 */
export function SelectMenu<T extends string = string>({
  options,
  value,
  onChange,
  compact,
  disabled,
  name,
  placeholder = 'Select...',
  className,
  id,
  floating = false,
  'aria-label': ariaLabel,
}: SelectMenuProps<T>) {
  const field = useFormFieldControl();
  const selected = options.find((option) => option.value === value);
  const attributes = controlAttributes(field, { id });
  const describedBy = attributes['aria-describedby'];
  const buttonRef = useRef<HTMLButtonElement>(null);
  // Headless UI's button writes its own aria-describedby (from its Description, none here), which
  // would drop the field's hint and error: set it on the element after each render instead.
  useEffect(() => {
    const button = buttonRef.current;
    if (!button) return;
    if (describedBy) button.setAttribute('aria-describedby', describedBy);
    else button.removeAttribute('aria-describedby');
  });
  return (
    <Listbox value={value} onChange={onChange} disabled={disabled} name={name}>
      <div className="relative inline-flex min-w-0">
        <ListboxButton
          ref={buttonRef}
          aria-label={ariaLabel}
          {...attributes}
          className={clsx(
            controlClasses({ compact, className }),
            'flex min-w-0 items-center justify-between gap-2 text-left data-[disabled]:cursor-not-allowed data-[disabled]:bg-gray-100',
          )}
        >
          <span className={clsx('truncate', !selected && 'text-gray-500')}>
            {selected ? (selected.label ?? selected.value) : placeholder}
          </span>
          <ChevronDown className="size-4 shrink-0 text-gray-400" aria-hidden />
        </ListboxButton>
        <ListboxOptions
          anchor={floating ? { to: 'bottom start', gap: 4 } : undefined}
          className={clsx(
            floating ? 'min-w-[var(--button-width)]' : 'absolute top-full left-0 mt-1 min-w-full',
            'z-50 max-h-64 w-max max-w-96 overflow-auto rounded-md border border-gray-200 bg-white py-1 text-sm shadow-lg focus:outline-none',
          )}
        >
          {options.map((option) => (
            <ListboxOption
              key={option.value}
              value={option.value}
              disabled={option.disabled}
              className="group flex cursor-pointer items-center gap-2 px-3 py-1.5 text-gray-800 data-[disabled]:cursor-not-allowed data-[disabled]:opacity-50 data-[focus]:bg-blue-50"
            >
              <Check
                className="invisible size-4 shrink-0 text-blue-600 group-data-[selected]:visible"
                aria-hidden
              />
              <span className="truncate">{option.label ?? option.value}</span>
            </ListboxOption>
          ))}
        </ListboxOptions>
      </div>
    </Listbox>
  );
}

/** Options from plain values, each shown as it is or through `labelOf`. */
export function optionsOf<T extends string>(
  values: readonly T[],
  labelOf: (value: T) => ReactNode = (value) => value,
): SelectMenuOption<T>[] {
  return values.map((value) => ({ value, label: labelOf(value) }));
}
