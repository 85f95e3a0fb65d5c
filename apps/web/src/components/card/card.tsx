import clsx from 'clsx';
import type { ComponentPropsWithoutRef, ReactNode } from 'react';

export interface CardProps extends Omit<ComponentPropsWithoutRef<'div'>, 'title'> {
  /** The element drawn: a `section` or `header` when the card is one. Default 'div'. */
  as?: 'div' | 'section' | 'header' | 'article';
  /** A heading at the card's top. */
  title?: ReactNode;
  children?: ReactNode;
}

/** A white panel with a border: the frame of a block of a page. */
export function Card({ as: Element = 'div', title, className, children, ...rest }: CardProps) {
  return (
    <Element
      className={clsx('flex flex-col gap-2 rounded border border-gray-200 bg-white p-4', className)}
      {...rest}
    >
      {title && <h2 className="text-base font-semibold text-gray-900">{title}</h2>}
      {children}
    </Element>
  );
}
