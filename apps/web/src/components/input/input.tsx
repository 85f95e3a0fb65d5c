import type { ComponentPropsWithRef } from 'react';
import { controlAttributes, useFormFieldControl } from '../form-field/form-field';
import { controlClasses } from './control-classes';

export interface InputProps extends ComponentPropsWithRef<'input'> {
  /** Less vertical padding, for toolbars and filters. Default false. */
  compact?: boolean;
}

/** A text input; inside a `FormField` it takes the field's id, error and hint. */
export function Input({ compact, className, id, ...rest }: InputProps) {
  const field = useFormFieldControl();
  return (
    <input
      className={controlClasses({ compact, className })}
      {...rest}
      {...controlAttributes(field, { id, ...rest })}
    />
  );
}
