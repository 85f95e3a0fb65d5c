import type { ComponentPropsWithRef } from 'react';
import { controlAttributes, useFormFieldControl } from '../form-field/form-field';
import { controlClasses } from '../input/control-classes';

export interface SelectProps extends ComponentPropsWithRef<'select'> {
  /** Less vertical padding, for toolbars and filters. Default false. */
  compact?: boolean;
}

/**
 * A native `<select>` (the browser's own keyboard and screen-reader behaviour); inside a
 * `FormField` it takes the field's id, error and hint.
 */
export function Select({ compact, className, id, ...rest }: SelectProps) {
  const field = useFormFieldControl();
  return (
    <select
      className={controlClasses({ compact, className })}
      {...rest}
      {...controlAttributes(field, { id, ...rest })}
    />
  );
}
