import type {
  NotificationSilencePreviewRequest,
  NotificationSilenceRequest,
  NotificationSilenceSelector,
} from '@opsdeck/contracts';
import type { ValidationResult } from '../../../components/form-field/validation-resolver';
import type { SilenceResourceKind } from '../api/notifications';

export interface SilenceFormValues {
  kind: SilenceResourceKind;
  resourceId: string;
  filter: string;
  description: string;
  /** Where the silence lives (empty: default); permission selectors on notifications match it by namespace. */
  namespace: string;
  /** datetime-local text, in the browser's zone. */
  from: string;
  until: string;
  indefinitely: boolean;
  recursive: boolean;
  /** One resource selector: name glob, comma-separated types, Kubernetes label selector. */
  selectorName: string;
  selectorTypes: string;
  selectorLabels: string;
}

/** The selector the form describes, or null when its fields are empty. */
export function selectorOf(values: SilenceFormValues): NotificationSilenceSelector | null {
  const name = values.selectorName.trim();
  const types = values.selectorTypes
    .split(',')
    .map((type) => type.trim())
    .filter(Boolean);
  const labelSelector = values.selectorLabels.trim();
  if (!name && types.length === 0 && !labelSelector) return null;
  return {
    ...(name ? { name } : {}),
    ...(types.length > 0 ? { types } : {}),
    ...(labelSelector ? { labelSelector } : {}),
  };
}

/** What the preview asks about: the form's resource, selector, filter and recursive (no dates). */
export function previewRequestOf(values: SilenceFormValues): NotificationSilencePreviewRequest | null {
  const selector = selectorOf(values);
  if (!values.resourceId && !values.filter.trim() && !selector) return null;
  return {
    ...(values.resourceId ? { [FIELD[values.kind]]: values.resourceId } : {}),
    ...(selector ? { selectors: [selector] } : {}),
    filter: values.filter.trim() || null,
    recursive: values.recursive,
  };
}

const FIELD: Record<SilenceResourceKind, 'check_id' | 'config_id' | 'component_id'> = {
  check: 'check_id',
  config: 'config_id',
  component: 'component_id',
};

/** The request to send: 'Indefinitely' is sent as until null (spec core §5). */
export function validateSilenceForm(
  values: SilenceFormValues,
): ValidationResult<NotificationSilenceRequest, keyof SilenceFormValues> {
  const selector = selectorOf(values);
  if (!values.resourceId && !values.filter.trim() && !selector) {
    return { ok: false, errors: { resourceId: 'Pick a resource, a selector or write a filter' } };
  }
  const from = values.from ? new Date(values.from) : undefined;
  if (from && Number.isNaN(from.getTime())) return { ok: false, errors: { from: 'From is not a date' } };
  let until: string | null = null;
  if (!values.indefinitely) {
    const date = new Date(values.until);
    if (!values.until || Number.isNaN(date.getTime())) {
      return { ok: false, errors: { until: 'Pick an end, or Indefinitely' } };
    }
    if (date.getTime() <= (from ?? new Date()).getTime()) {
      return { ok: false, errors: { until: 'Until must be later than From' } };
    }
    until = date.toISOString();
  }
  return {
    ok: true,
    value: {
      ...(values.resourceId ? { [FIELD[values.kind]]: values.resourceId } : {}),
      ...(selector ? { selectors: [selector] } : {}),
      filter: values.filter.trim() || null,
      description: values.description.trim() || null,
      ...(values.namespace.trim() ? { namespace: values.namespace.trim() } : {}),
      recursive: values.recursive,
      from: from?.toISOString() ?? null,
      until,
    },
  };
}
