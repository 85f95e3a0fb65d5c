import clsx from 'clsx';
import { Search } from 'lucide-react';
import type { ComponentPropsWithRef } from 'react';
import { controlAttributes, useFormFieldControl } from '../form-field/form-field';
import { controlClasses } from '../input/control-classes';

export interface SearchInputProps extends Omit<ComponentPropsWithRef<'input'>, 'type'> {
  /** Classes of the wrapper: its width and placement. */
  className?: string;
}

/**
 * A search box (`role="searchbox"`) with a magnifier; give it an `aria-label` or put it in a
 * `FormField`. It is compact, for the toolbars it sits in.
 */
export function SearchInput({ className, id, ...rest }: SearchInputProps) {
  const field = useFormFieldControl();
  return (
    <span className={clsx('relative inline-flex items-center', className)}>
      <Search aria-hidden className="pointer-events-none absolute left-2 size-3.5 text-gray-400" />
      <input
        type="search"
        className={controlClasses({ compact: true, className: 'w-full pl-7' })}
        {...rest}
        {...controlAttributes(field, { id, ...rest })}
      />
    </span>
  );
}
