import { Switch as HeadlessSwitch } from '@headlessui/react';
import clsx from 'clsx';

export interface SwitchProps {
  checked: boolean;
  onChange(checked: boolean): void;
  /** Visible text beside the switch; also its accessible name. */
  label: string;
  disabled?: boolean;
  className?: string;
}

/** An on/off switch (role switch; Space toggles) with its label beside it. */
export function Switch({ checked, onChange, label, disabled, className }: SwitchProps) {
  return (
    <label className={clsx('inline-flex items-center gap-2 text-sm text-gray-700', className)}>
      <HeadlessSwitch
        checked={checked}
        onChange={onChange}
        disabled={disabled}
        aria-label={label}
        className="group relative inline-flex h-5 w-9 shrink-0 items-center rounded-full bg-gray-300 transition-colors data-[checked]:bg-blue-600 data-[disabled]:cursor-not-allowed data-[disabled]:opacity-50 data-[focus]:outline-2 data-[focus]:outline-offset-2 data-[focus]:outline-blue-500"
      >
        <span className="inline-block size-4 translate-x-0.5 rounded-full bg-white shadow transition-transform group-data-[checked]:translate-x-4.5" />
      </HeadlessSwitch>
      <span aria-hidden>{label}</span>
    </label>
  );
}
