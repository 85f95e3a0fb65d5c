import type { NotificationSilenceRequest } from '@opsdeck/contracts';
import type { ValidationResult } from '../../../components/form-field/validation-resolver';
import type { SilenceResourceKind } from '../api/notifications';

export interface SilenceFormValues {
  kind: SilenceResourceKind;
  resourceId: string;
  filter: string;
  description: string;
  /** datetime-local text, in the browser's zone. */
  from: string;
  until: string;
  indefinitely: boolean;
  recursive: boolean;
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
  if (!values.resourceId && !values.filter.trim()) {
    return { ok: false, errors: { resourceId: 'Pick a resource or write a filter' } };
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
      filter: values.filter.trim() || null,
      description: values.description.trim() || null,
      recursive: values.recursive,
      from: from?.toISOString() ?? null,
      until,
    },
  };
}
