import { iconFor, RESOURCE_ICONS } from './icon-for';

export interface ResourceIconProps {
  /** An entity's own icon name, tried first. */
  icon?: string | null;
  /** A config item's config_class. */
  configClass?: string | null;
  /** A type such as 'Kubernetes::Pod' or 'http'. */
  type?: string | null;
  /** Accessible name; without it the icon is decorative. */
  label?: string;
  className?: string;
}

/** The icon of a check, component or config item, chosen from its type or config_class. */
export function ResourceIcon({ icon, configClass, type, label, className = 'size-4' }: ResourceIconProps) {
  const name = iconFor({ icon, configClass, type });
  const Icon = RESOURCE_ICONS[name];
  return label ? (
    <Icon role="img" aria-label={label} data-icon={name} className={className} />
  ) : (
    <Icon aria-hidden data-icon={name} className={className} />
  );
}
