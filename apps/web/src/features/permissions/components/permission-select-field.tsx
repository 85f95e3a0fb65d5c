import { Controller, type Control } from 'react-hook-form';
import { FormField } from '../../../components/form-field/form-field';
import { SelectMenu, type SelectMenuOption } from '../../../components/select-menu/select-menu';
import type { PermissionFormValues } from '../lib/permission-form';

/** The fields of the permission form chosen from a list. */
export type PermissionSelectName = 'subjectId' | 'target' | 'action';

export interface PermissionSelectFieldProps {
  control: Control<PermissionFormValues, unknown, Record<string, unknown>>;
  name: PermissionSelectName;
  label: string;
  options: readonly SelectMenuOption[];
  disabled: boolean;
  required?: boolean;
  error?: string;
  /** Called after the field takes a new value (the action follows the resource). */
  onChanged?(value: string): void;
}

/** One labelled select of the permission form, bound to its form field. */
export function PermissionSelectField({
  control,
  name,
  label,
  options,
  disabled,
  required,
  error,
  onChanged,
}: PermissionSelectFieldProps) {
  return (
    <FormField label={label} required={required} error={error}>
      <Controller
        control={control}
        name={name}
        render={({ field }) => (
          <SelectMenu
            name={field.name}
            value={field.value}
            onChange={(value) => {
              field.onChange(value);
              onChanged?.(value);
            }}
            disabled={disabled}
            options={options}
            className="w-full"
            floating
          />
        )}
      />
    </FormField>
  );
}
