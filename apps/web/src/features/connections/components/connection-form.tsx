import {
  buildServiceUrl,
  CONNECTION_DEFAULT_NAMESPACE,
  connectionFromForm,
  connectionToForm,
  connectionTypeOf,
  defaultConnectionFormValues,
  visibleConnectionFields,
  type Connection,
  type ConnectionField,
  type ConnectionFormValues,
  type ConnectionTestResult,
  type ConnectionType,
  type ConnectionValue,
} from '@opsdeck/contracts';
import { useState } from 'react';
import { Controller, useForm, useWatch } from 'react-hook-form';
import { Button } from '../../../components/button/button';
import { ConfirmationDialog } from '../../../components/confirmation-dialog/confirmation-dialog';
import { FormField } from '../../../components/form-field/form-field';
import { Input } from '../../../components/input/input';
import { optionsOf, SelectMenu } from '../../../components/select-menu/select-menu';
import { Textarea } from '../../../components/textarea/textarea';
import { showErrorToast, showSuccessToast } from '../../../components/toasts/toasts';
import {
  useDeleteConnection,
  useSaveConnection,
  useTestConnection,
  useTestSavedConnection,
} from '../api/connections';
import { ConnectionHealthDot } from './connection-health-dot';
import { ValueSourceField } from './value-source-field';

export const REQUIRED_MESSAGE = 'This field is required';
export const NUMBER_MESSAGE = 'This field must be a number';

interface FormValues {
  name: string;
  namespace: string;
  values: ConnectionFormValues;
}

export interface ConnectionFormProps {
  type: ConnectionType;
  /** The stored connection when editing. */
  connection?: Connection;
  /** Whether the user may edit connections: otherwise the form only shows. */
  canEdit: boolean;
  onDone(): void;
  /** Back to the type picker (new connections). */
  onBack?(): void;
}

function isBlank(value: unknown): boolean {
  if (value === undefined || value === '' || value === false) return true;
  if (typeof value === 'object' && value !== null && 'valueFrom' in value) {
    const from = (value as { valueFrom: Record<string, { name: string; key: string }> }).valueFrom;
    const reference = from.secretKeyRef ?? from.configMapKeyRef;
    return !reference?.name || !reference.key;
  }
  return false;
}

function fieldRules(field: ConnectionField) {
  return {
    validate: (value: unknown) => {
      if (field.required && isBlank(value)) return REQUIRED_MESSAGE;
      if (field.input === 'number' && typeof value === 'string' && value !== '' && !/^\d+$/.test(value))
        return NUMBER_MESSAGE;
      return true;
    },
  };
}

/** One connection's form (settings §3): Name, Namespace and exactly the type's fields. */
export function ConnectionForm({ type, connection, canEdit, onDone, onBack }: ConnectionFormProps) {
  const initial = connection ? connectionToForm(connection) : undefined;
  const {
    control,
    register,
    handleSubmit,
    getValues,
    trigger,
    formState: { errors, isDirty },
  } = useForm<FormValues>({
    mode: 'onTouched',
    defaultValues: {
      name: initial?.name ?? '',
      namespace: initial?.namespace ?? CONNECTION_DEFAULT_NAMESPACE,
      values: initial?.values ?? defaultConnectionFormValues(type),
    },
  });
  const values = useWatch({ control, name: 'values' });
  const save = useSaveConnection();
  const remove = useDeleteConnection();
  const testForm = useTestConnection();
  const testSaved = useTestSavedConnection();
  const testing = testForm.isPending || testSaved.isPending;
  const [result, setResult] = useState<ConnectionTestResult>();
  const [confirmDelete, setConfirmDelete] = useState(false);
  const disabled = !canEdit;
  const editing = connection !== undefined;
  const fields = visibleConnectionFields(type, values);

  const input = (form: FormValues) =>
    connectionFromForm({
      name: form.name.trim(),
      namespace: form.namespace.trim(),
      type: type.type,
      values: form.values,
    });

  const submit = handleSubmit(async (form) => {
    try {
      const saved = await save.mutateAsync({ id: connection?.id, input: input(form) });
      showSuccessToast(`${saved.name} ${editing ? 'updated' : 'created'} successfully`);
      onDone();
    } catch (error) {
      showErrorToast(error);
    }
  });

  const runTest = async () => {
    if (!(await trigger())) return;
    setResult(undefined);
    try {
      // A saved connection tested as stored records the result (the list's health colour);
      // changed values are tested as they are in the form, before saving.
      setResult(
        connection && !isDirty
          ? await testSaved.mutateAsync(connection.id)
          : await testForm.mutateAsync({ id: connection?.id, input: input(getValues()) }),
      );
    } catch (error) {
      showErrorToast(error);
    }
  };

  const confirmRemove = async () => {
    if (!connection) return;
    try {
      await remove.mutateAsync(connection.id);
      showSuccessToast(`${connection.name} deleted successfully`);
      setConfirmDelete(false);
      onDone();
    } catch (error) {
      showErrorToast(error);
    }
  };

  return (
    <form onSubmit={(event) => void submit(event)} noValidate className="flex flex-col gap-4 text-sm">
      <FormField label="Name" required error={errors.name?.message}>
        <Input
          autoComplete="off"
          disabled={disabled || editing}
          {...register('name', { validate: (value) => (value.trim() === '' ? REQUIRED_MESSAGE : true) })}
        />
      </FormField>
      <FormField label="Namespace" required error={errors.namespace?.message}>
        <Input
          autoComplete="off"
          disabled={disabled || editing}
          {...register('namespace', { validate: (value) => (value.trim() === '' ? REQUIRED_MESSAGE : true) })}
        />
      </FormField>
      {fields.map((field) => (
        <Controller
          key={field.key}
          control={control}
          name={`values.${field.key}`}
          rules={fieldRules(field)}
          render={({ field: control_, fieldState }) => {
            if (field.input === 'boolean')
              return (
                <label className="inline-flex items-center gap-2 text-gray-700">
                  <input
                    type="checkbox"
                    checked={control_.value === true}
                    disabled={disabled}
                    onChange={(event) => control_.onChange(event.target.checked)}
                    onBlur={control_.onBlur}
                  />
                  {field.label}
                </label>
              );
            const column = field.target !== 'properties';
            return (
              <FormField label={field.label} required={field.required} error={fieldState.error?.message}>
                {column ? (
                  <ValueSourceField
                    label={field.label}
                    value={control_.value as ConnectionValue | undefined}
                    onChange={control_.onChange}
                    onBlur={control_.onBlur}
                    disabled={disabled}
                    multiline={field.input === 'textarea' || field.target === 'certificate'}
                    secret={field.target === 'password'}
                    invalid={Boolean(fieldState.error)}
                  />
                ) : field.input === 'select' ? (
                  <SelectMenu
                    floating
                    className="w-full"
                    options={optionsOf(field.options ?? [])}
                    value={typeof control_.value === 'string' ? control_.value : ''}
                    disabled={disabled}
                    onChange={(value) => {
                      control_.onChange(value);
                      control_.onBlur();
                    }}
                  />
                ) : field.input === 'textarea' ? (
                  <Textarea
                    code
                    rows={4}
                    value={typeof control_.value === 'string' ? control_.value : ''}
                    disabled={disabled}
                    onChange={(event) => control_.onChange(event.target.value)}
                    onBlur={control_.onBlur}
                  />
                ) : (
                  <Input
                    type={field.input === 'secret' ? 'password' : 'text'}
                    inputMode={field.input === 'number' ? 'numeric' : undefined}
                    autoComplete="off"
                    value={typeof control_.value === 'string' ? control_.value : ''}
                    disabled={disabled}
                    onChange={(event) => control_.onChange(event.target.value)}
                    onBlur={control_.onBlur}
                  />
                )}
              </FormField>
            );
          }}
        />
      ))}
      {type.category === 'notification' && (
        <FormField label="Service URL" hint="Built from the fields above when the connection is saved.">
          <Input readOnly value={buildServiceUrl(type.type, values)} />
        </FormField>
      )}
      {result && (
        <p role="status" className="flex items-center gap-2 rounded-md border border-gray-200 px-3 py-2">
          <ConnectionHealthDot status={result.status} />
          <span>{result.message}</span>
        </p>
      )}
      {canEdit && (
        <div className="flex flex-wrap items-center gap-2 border-t border-gray-100 pt-3">
          {onBack && (
            <Button variant="ghost" onClick={onBack}>
              Back
            </Button>
          )}
          {editing && (
            <Button variant="danger" onClick={() => setConfirmDelete(true)}>
              Delete
            </Button>
          )}
          <div className="ml-auto flex gap-2">
            <Button variant="secondary" onClick={() => void runTest()} disabled={testing}>
              {testing ? 'Testing...' : 'Test'}
            </Button>
            <Button type="submit" variant="primary" disabled={save.isPending}>
              {editing ? (save.isPending ? 'Updating' : 'Update') : save.isPending ? 'Saving' : 'Save'}
            </Button>
          </div>
        </div>
      )}
      <ConfirmationDialog
        open={confirmDelete}
        title={`Delete ${connection?.name ?? ''}?`}
        description="Checks, scrapers, playbooks and notifications that use this connection stop working."
        onConfirm={() => void confirmRemove()}
        onClose={() => setConfirmDelete(false)}
        isLoading={remove.isPending}
      />
    </form>
  );
}

/** The catalogue entry of a stored connection (an unknown type shows no typed fields). */
export function connectionTypeFor(connection: Connection): ConnectionType {
  return (
    connectionTypeOf(connection.type) ?? {
      type: connection.type,
      label: connection.type,
      category: 'connection',
      fields: [],
    }
  );
}
