import clsx from 'clsx';

export interface ControlLook {
  /** Less vertical padding, for toolbars and filters. Default false. */
  compact?: boolean;
  /** Small monospaced text, for JSON, YAML, scripts and queries. Default false. */
  code?: boolean;
  className?: string;
}

/** The look shared by text inputs, selects and text areas. */
export function controlClasses({ compact = false, code = false, className }: ControlLook) {
  return clsx(
    'rounded border border-gray-300 bg-white px-2 text-gray-900 focus:border-blue-500 focus:outline-none disabled:bg-gray-100 aria-invalid:border-red-500',
    compact ? 'py-1' : 'py-1.5',
    code ? 'font-mono text-xs' : 'text-sm',
    className,
  );
}
