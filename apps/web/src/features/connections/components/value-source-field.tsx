import { VALUE_SOURCES, valueSourceOf, type ConnectionValue, type ValueSourceKind } from '@opsdeck/contracts';
import { useId } from 'react';
import { Input } from '../../../components/input/input';
import { optionsOf, SelectMenu } from '../../../components/select-menu/select-menu';
import { Textarea } from '../../../components/textarea/textarea';

export interface ValueSourceFieldProps {
  label: string;
  value: ConnectionValue | undefined;
  onChange(value: ConnectionValue): void;
  onBlur?(): void;
  disabled?: boolean;
  multiline?: boolean;
  /** Static values of secrets are typed in a password input. */
  secret?: boolean;
  invalid?: boolean;
}

/** The empty value of a source: switching the selector clears the other source's value. */
function emptyValue(source: ValueSourceKind): ConnectionValue {
  if (source === 'Secret') return { valueFrom: { secretKeyRef: { name: '', key: '' } } };
  if (source === 'Config Map') return { valueFrom: { configMapKeyRef: { name: '', key: '' } } };
  return '';
}

/**
 * A secret-style value (settings §3): Static text, or a key of a Config Map or a Secret in the
 * connection's namespace.
 */
export function ValueSourceField({
  label,
  value,
  onChange,
  onBlur,
  disabled,
  multiline,
  secret,
  invalid,
}: ValueSourceFieldProps) {
  const source = valueSourceOf(value);
  // The field's label names the value's input; the selector has its own id and name.
  const selectorId = useId();
  const reference =
    typeof value === 'object'
      ? 'secretKeyRef' in value.valueFrom
        ? value.valueFrom.secretKeyRef
        : value.valueFrom.configMapKeyRef
      : undefined;
  const setReference = (part: 'name' | 'key', text: string) => {
    const next = { name: reference?.name ?? '', key: reference?.key ?? '', [part]: text };
    onChange(
      source === 'Secret' ? { valueFrom: { secretKeyRef: next } } : { valueFrom: { configMapKeyRef: next } },
    );
  };
  return (
    <div className="flex gap-2">
      <SelectMenu
        floating
        id={selectorId}
        aria-label={`${label} source`}
        className="w-36 shrink-0"
        options={optionsOf(VALUE_SOURCES)}
        value={source}
        disabled={disabled}
        onChange={(next: ValueSourceKind) => {
          if (next !== source) onChange(emptyValue(next));
        }}
      />
      {source === 'Static' ? (
        multiline ? (
          <Textarea
            code
            rows={4}
            value={typeof value === 'string' ? value : ''}
            disabled={disabled}
            aria-invalid={invalid || undefined}
            onBlur={onBlur}
            onChange={(event) => onChange(event.target.value)}
          />
        ) : (
          <Input
            type={secret ? 'password' : 'text'}
            autoComplete="off"
            value={typeof value === 'string' ? value : ''}
            disabled={disabled}
            aria-invalid={invalid || undefined}
            onBlur={onBlur}
            onChange={(event) => onChange(event.target.value)}
          />
        )
      ) : (
        <>
          <Input
            aria-label={`${label} ${source === 'Secret' ? 'secret' : 'config map'} name`}
            placeholder={source === 'Secret' ? 'Secret name' : 'Config map name'}
            value={reference?.name ?? ''}
            disabled={disabled}
            aria-invalid={invalid || undefined}
            onBlur={onBlur}
            onChange={(event) => setReference('name', event.target.value)}
          />
          <Input
            aria-label={`${label} key`}
            placeholder="Key"
            value={reference?.key ?? ''}
            disabled={disabled}
            aria-invalid={invalid || undefined}
            onBlur={onBlur}
            onChange={(event) => setReference('key', event.target.value)}
          />
        </>
      )}
    </div>
  );
}
