import clsx from 'clsx';
import { createContext, useContext, useId, type AriaAttributes, type ReactNode } from 'react';

/** What a control inside a `FormField` takes from it: its id and the ids describing it. */
export interface FormFieldControl {
  id: string;
  invalid: boolean;
  describedBy: string | undefined;
  required: boolean;
}

const FormFieldContext = createContext<FormFieldControl | undefined>(undefined);

/** The id, `aria-invalid` and `aria-describedby` of the control inside the nearest `FormField`. */
export function useFormFieldControl(): FormFieldControl | undefined {
  return useContext(FormFieldContext);
}

/** The attributes a control spreads: the field's, unless the control names its own. */
export function controlAttributes(
  field: FormFieldControl | undefined,
  own: { id?: string } & Pick<AriaAttributes, 'aria-invalid' | 'aria-describedby' | 'aria-required'>,
): { id?: string } & AriaAttributes {
  return {
    id: own.id ?? field?.id,
    'aria-invalid': own['aria-invalid'] ?? (field?.invalid ? true : undefined),
    'aria-describedby': own['aria-describedby'] ?? field?.describedBy,
    'aria-required': own['aria-required'] ?? (field?.required || undefined),
  };
}

export interface FormFieldProps {
  label: ReactNode;
  /** The field's problem, shown under the control and tied to it with `aria-describedby`. */
  error?: string;
  /** A line of help under the control, also tied to it. */
  hint?: ReactNode;
  /** Marks the field required: a red '*' beside (not inside) the label, and `aria-required`. */
  required?: boolean;
  /** The control's id when the page needs to know it; a generated one otherwise. */
  id?: string;
  className?: string;
  /** One control: `Input`, `Select`, `Textarea` or a control reading `useFormFieldControl()`. */
  children: ReactNode;
}

/**
 * A label, one control, a hint and an error, wired for assistive technology: the label names the
 * control (`htmlFor`), the error and hint describe it, and the control is `aria-invalid` while
 * the error shows.
 */
export function FormField({ label, error, hint, required = false, id, className, children }: FormFieldProps) {
  const generated = useId();
  const controlId = id ?? generated;
  const errorId = `${controlId}-error`;
  const hintId = `${controlId}-hint`;
  const describedBy = clsx(hint ? hintId : undefined, error ? errorId : undefined) || undefined;
  return (
    <FormFieldContext value={{ id: controlId, invalid: Boolean(error), describedBy, required }}>
      <div className={clsx('flex flex-col gap-1 text-sm', className)}>
        <span className="flex gap-0.5">
          <label htmlFor={controlId} className="font-medium text-gray-700">
            {label}
          </label>
          {required && (
            <span aria-hidden className="text-red-600">
              *
            </span>
          )}
        </span>
        {children}
        {hint && (
          <p id={hintId} className="text-xs text-gray-500">
            {hint}
          </p>
        )}
        <FieldError id={errorId} message={error} />
      </div>
    </FormFieldContext>
  );
}

/** A field's problem on its own, for a control laid out without `FormField` (a code editor). */
export function FieldError({ id, message }: { id?: string; message: string | undefined }) {
  if (!message) return null;
  return (
    <p id={id} role="alert" className="text-xs text-red-600">
      {message}
    </p>
  );
}
