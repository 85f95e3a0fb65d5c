import type { ComponentPropsWithRef } from 'react';
import { controlAttributes, useFormFieldControl } from '../form-field/form-field';
import { controlClasses } from '../input/control-classes';

export interface TextareaProps extends ComponentPropsWithRef<'textarea'> {
  /** Monospaced text, for JSON, YAML, scripts and queries. Default false. */
  code?: boolean;
}

/** A multi-line text input; inside a `FormField` it takes the field's id, error and hint. */
export function Textarea({ code = false, className, id, ...rest }: TextareaProps) {
  const field = useFormFieldControl();
  return (
    <textarea
      className={controlClasses({ code, className })}
      {...rest}
      {...controlAttributes(field, { id, ...rest })}
    />
  );
}
