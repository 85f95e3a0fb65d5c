import { SCHEDULE_PRESETS } from '@opsdeck/contracts';
import { useId } from 'react';
import { FieldError, FormField } from '../../../components/form-field/form-field';
import { Input } from '../../../components/input/input';
import { SelectMenu } from '../../../components/select-menu/select-menu';
import { Textarea } from '../../../components/textarea/textarea';
import {
  CHECK_FORMS,
  HTTP_RESPONSE_CODES,
  checkCount,
  fieldValue,
  firstCheck,
  setCheckField,
  setSchedule,
  type CanarySpec,
  type CheckField,
} from '../lib/check-forms';

interface FieldProps {
  field: CheckField;
  /** The field is required (always, or because of what the check holds). */
  required: boolean;
  value: string | string[];
  error: string | undefined;
  readOnly: boolean;
  onChange(value: string | string[]): void;
  onBlur(): void;
}

function Field({ field, required, value, error, readOnly, onChange, onBlur }: FieldProps) {
  const errorId = useId();
  if (field.kind === 'codes') {
    const chosen = new Set(value as string[]);
    return (
      <fieldset
        className="col-span-2 flex flex-col gap-1 text-sm"
        onBlur={onBlur}
        aria-describedby={error ? errorId : undefined}
      >
        <legend className="mb-1 font-medium text-gray-700">{field.label}</legend>
        <div className="flex flex-wrap gap-3">
          {HTTP_RESPONSE_CODES.map((code) => (
            <label key={code} className="flex items-center gap-1">
              <input
                type="checkbox"
                disabled={readOnly}
                checked={chosen.has(String(code))}
                onChange={(event) => {
                  const next = new Set(chosen);
                  if (event.target.checked) next.add(String(code));
                  else next.delete(String(code));
                  onChange([...next]);
                }}
              />
              {code}
            </label>
          ))}
        </div>
        <FieldError id={errorId} message={error} />
      </fieldset>
    );
  }
  const common = {
    disabled: readOnly,
    onBlur,
    onChange: (event: { target: { value: string } }) => onChange(event.target.value),
  };
  return (
    <FormField
      label={field.label}
      required={required}
      error={error}
      className={field.kind === 'textarea' ? 'col-span-2' : undefined}
    >
      {field.kind === 'textarea' ? (
        <Textarea
          {...common}
          code
          rows={field.key === 'script' || field.key === 'query' ? 6 : 4}
          value={value as string}
          placeholder={field.placeholder}
        />
      ) : field.kind === 'select' || field.kind === 'flag' ? (
        <SelectMenu
          compact
          floating
          className="w-full"
          disabled={readOnly}
          value={value as string}
          onChange={(choice) => {
            onChange(choice);
            onBlur();
          }}
          options={[
            ...(field.options ?? []).map((option) => ({ value: option.value, label: option.label })),
            ...(field.kind === 'select' &&
            value !== '' &&
            !field.options?.some((option) => option.value === value)
              ? [{ value: value as string, label: value as string }]
              : []),
          ]}
        />
      ) : (
        <Input
          {...common}
          compact
          type={field.kind === 'password' ? 'password' : 'text'}
          autoComplete={field.kind === 'password' ? 'new-password' : undefined}
          inputMode={field.kind === 'number' ? 'numeric' : undefined}
          value={value as string}
          placeholder={field.placeholder}
        />
      )}
    </FormField>
  );
}

export interface CheckFormProps {
  typeKey: string;
  spec: CanarySpec;
  onChange(spec: CanarySpec): void;
  /** Problems by field key, shown for touched fields (all of them after a Save attempt). */
  errors: Record<string, string>;
  touched: ReadonlySet<string>;
  onTouch(key: string): void;
  readOnly: boolean;
}

/**
 * The Form tab of a check type (settings §2.4): the canary's schedule and the fields of the type's
 * first check. Every change rewrites the spec, so the Code tab shows the same document.
 */
export function CheckForm({ typeKey, spec, onChange, errors, touched, onTouch, readOnly }: CheckFormProps) {
  const fields = CHECK_FORMS[typeKey] ?? [];
  const check = firstCheck(spec, typeKey);
  const schedule = typeof spec.schedule === 'string' ? spec.schedule : '';
  const count = checkCount(spec, typeKey);
  return (
    <div className="grid grid-cols-2 gap-3" data-testid="check-form">
      <FormField label="Schedule">
        <SelectMenu
          compact
          floating
          className="w-full"
          value={schedule}
          disabled={readOnly}
          onChange={(choice) => onChange(setSchedule(spec, choice))}
          options={[
            { value: '', label: 'None' },
            ...SCHEDULE_PRESETS.map((preset) => ({ value: preset, label: preset })),
            ...(schedule && !(SCHEDULE_PRESETS as readonly string[]).includes(schedule)
              ? [{ value: schedule, label: schedule }]
              : []),
          ]}
        />
      </FormField>
      <div />
      {fields
        .filter((field) => !field.visible || field.visible(check))
        .flatMap((field) => [
          ...(field.section
            ? [
                <h3
                  key={`section-${field.section}`}
                  className="col-span-2 mt-2 text-sm font-medium text-gray-800"
                >
                  {field.section}
                </h3>,
              ]
            : []),
          <Field
            key={field.key}
            field={field}
            required={Boolean(field.required || field.requiredWhen?.(check))}
            value={fieldValue(check, field)}
            error={touched.has(field.key) ? errors[field.key] : undefined}
            readOnly={readOnly}
            onBlur={() => onTouch(field.key)}
            onChange={(value) => {
              onTouch(field.key);
              onChange(setCheckField(spec, typeKey, field, value));
            }}
          />,
        ])}
      {count > 1 && (
        <p className="col-span-2 text-xs text-gray-600">
          This spec has {count} checks of this type; the form edits the first one. Use the Code tab for the
          others.
        </p>
      )}
    </div>
  );
}
