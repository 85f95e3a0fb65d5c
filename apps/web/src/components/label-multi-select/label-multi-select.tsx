import { Field, Label, Listbox, ListboxButton, ListboxOption, ListboxOptions } from '@headlessui/react';
import clsx from 'clsx';
import { Check, ChevronDown } from 'lucide-react';

/** Selections shown by name below this count; from it on the button reads 'including N labels' (core §9). */
export const LABEL_SUMMARY_THRESHOLD = 4;

/** The button text for a set of selected labels. */
export function summarizeLabels(selected: readonly string[], placeholder: string): string {
  if (selected.length === 0) return placeholder;
  if (selected.length >= LABEL_SUMMARY_THRESHOLD) return `including ${selected.length} labels`;
  return selected.join(', ');
}

export interface LabelOption {
  /** Usually 'key=value'. */
  value: string;
  label?: string;
}

export interface LabelMultiSelectProps {
  /** Visible field label and accessible name. */
  label: string;
  options: readonly LabelOption[];
  value: readonly string[];
  onChange(values: string[]): void;
  /** Shown when nothing is selected. Default 'All'. */
  placeholder?: string;
  className?: string;
}

/** Picks several labels; summarises as 'including N labels' from 4 selections. */
export function LabelMultiSelect({
  label,
  options,
  value,
  onChange,
  placeholder = 'All',
  className,
}: LabelMultiSelectProps) {
  const labelOf = (selected: string) =>
    options.find((option) => option.value === selected)?.label ?? selected;
  return (
    <Field className={clsx('flex flex-col gap-1', className)}>
      <Label className="text-xs font-medium text-gray-600">{label}</Label>
      <Listbox value={[...value]} onChange={onChange} multiple>
        <div className="relative">
          <ListboxButton className="flex w-full items-center justify-between gap-2 rounded-md border border-gray-300 bg-white px-3 py-1.5 text-left text-sm text-gray-800 hover:bg-gray-50">
            <span className="truncate">{summarizeLabels(value.map(labelOf), placeholder)}</span>
            <ChevronDown className="size-4 text-gray-400" aria-hidden />
          </ListboxButton>
          <ListboxOptions className="absolute z-20 mt-1 max-h-64 w-full overflow-auto rounded-md border border-gray-200 bg-white py-1 text-sm shadow-lg focus:outline-none">
            {options.map((option) => (
              <ListboxOption
                key={option.value}
                value={option.value}
                className="group flex cursor-pointer items-center gap-2 px-3 py-1.5 data-[focus]:bg-blue-50"
              >
                <Check className="invisible size-4 text-blue-600 group-data-[selected]:visible" aria-hidden />
                <span className="truncate">{option.label ?? option.value}</span>
              </ListboxOption>
            ))}
          </ListboxOptions>
        </div>
      </Listbox>
    </Field>
  );
}
