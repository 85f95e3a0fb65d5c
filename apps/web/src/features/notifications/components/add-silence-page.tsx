import {
  SILENCE_PREVIEW_DEFAULT_DAYS,
  type NotificationSilencePreviewRequest,
  type NotificationSilenceRequest,
} from '@opsdeck/contracts';
import { useState } from 'react';
import { Controller, useForm, useWatch } from 'react-hook-form';
import { Link, useNavigate } from 'react-router';
import { Button, buttonClasses } from '../../../components/button/button';
import { FormattedDate } from '../../../components/date/age';
import { FormField } from '../../../components/form-field/form-field';
import { validationResolver } from '../../../components/form-field/validation-resolver';
import { Input } from '../../../components/input/input';
import { SelectMenu } from '../../../components/select-menu/select-menu';
import { Textarea } from '../../../components/textarea/textarea';
import { showErrorToast, showSuccessToast } from '../../../components/toasts/toasts';
import {
  RESOURCE_KINDS,
  useAddSilence,
  useResourceOptions,
  useSilencePreview,
  type SilenceResourceKind,
} from '../api/notifications';
import { previewRequestOf, validateSilenceForm, type SilenceFormValues } from '../lib/silence-form';
import { SendStatusBadge } from './status-badge';
import { NOTIFICATION_SILENCES_PATH, NotificationTabs } from './notification-tabs';

const resolver = validationResolver((values: SilenceFormValues) => validateSilenceForm(values));
const KIND_OPTIONS = (Object.keys(RESOURCE_KINDS) as SilenceResourceKind[]).map((value) => ({
  value,
  label: RESOURCE_KINDS[value].label,
}));

/** /notifications/silences/add (needs write): resource picker, filter, from/until with Indefinitely, recursive. */
export function AddSilencePage() {
  const navigate = useNavigate();
  const add = useAddSilence();
  const [search, setSearch] = useState('');
  const [previewing, setPreviewing] = useState<NotificationSilencePreviewRequest | null>(null);
  const [previewHint, setPreviewHint] = useState('');
  const {
    register,
    handleSubmit,
    control,
    getValues,
    setValue,
    formState: { errors },
  } = useForm<SilenceFormValues, unknown, NotificationSilenceRequest>({
    resolver,
    defaultValues: {
      kind: 'check',
      resourceId: '',
      filter: '',
      description: '',
      namespace: '',
      from: '',
      until: '',
      indefinitely: false,
      recursive: false,
      selectorName: '',
      selectorTypes: '',
      selectorLabels: '',
    },
  });
  const kind = useWatch({ control, name: 'kind' });
  const indefinitely = useWatch({ control, name: 'indefinitely' });
  const options = useResourceOptions(kind, search);
  const submit = handleSubmit((body) =>
    add.mutate(body, {
      onSuccess: () => {
        showSuccessToast('Silence added successfully');
        void navigate(NOTIFICATION_SILENCES_PATH);
      },
      onError: (error) => showErrorToast(error),
    }),
  );
  return (
    <div className="flex flex-col gap-4">
      <NotificationTabs />
      <h2 className="text-base font-semibold">Add Silence</h2>
      <form noValidate onSubmit={(event) => void submit(event)} className="flex max-w-2xl flex-col gap-3">
        <div className="grid grid-cols-1 gap-3 md:grid-cols-3">
          <FormField label="Resource type">
            <Controller
              control={control}
              name="kind"
              render={({ field }) => (
                <SelectMenu
                  name={field.name}
                  value={field.value}
                  onChange={(value) => {
                    field.onChange(value);
                    setValue('resourceId', '');
                  }}
                  options={KIND_OPTIONS}
                  className="w-full"
                />
              )}
            />
          </FormField>
          <FormField label="Find resource">
            <Input value={search} onChange={(event) => setSearch(event.target.value)} placeholder="Name" />
          </FormField>
          <FormField label="Resource" error={errors.resourceId?.message}>
            <Controller
              control={control}
              name="resourceId"
              render={({ field }) => (
                <SelectMenu
                  name={field.name}
                  value={field.value}
                  onChange={field.onChange}
                  options={[
                    { value: '', label: options.isPending ? 'Loading…' : 'None' },
                    ...(options.data ?? []).map((option) => ({ value: option.id, label: option.name })),
                  ]}
                  className="w-full"
                />
              )}
            />
          </FormField>
        </div>
        <fieldset className="grid grid-cols-1 gap-3 md:grid-cols-3">
          <legend className="mb-1 text-sm font-medium">Selector</legend>
          <FormField label="Name" hint="Glob, e.g. db-*">
            <Input {...register('selectorName')} />
          </FormField>
          <FormField label="Types" hint="Comma separated, e.g. http,tcp">
            <Input {...register('selectorTypes')} />
          </FormField>
          <FormField label="Labels" hint="e.g. env=prod,team!=web">
            <Input {...register('selectorLabels')} className="font-mono" />
          </FormField>
        </fieldset>
        <FormField
          label="Filter"
          hint="CEL, e.g. check.name.startsWith('staging')"
          error={errors.filter?.message}
        >
          <Input {...register('filter')} className="font-mono" />
        </FormField>
        <FormField label="Description">
          <Textarea rows={2} {...register('description')} />
        </FormField>
        <FormField label="Namespace" hint="Empty: default">
          <Input {...register('namespace')} />
        </FormField>
        <div className="grid grid-cols-1 gap-3 md:grid-cols-2">
          <FormField label="From" hint="Empty: now" error={errors.from?.message}>
            <Input type="datetime-local" {...register('from')} />
          </FormField>
          <FormField label="Until" error={errors.until?.message}>
            <Input type="datetime-local" {...register('until')} disabled={indefinitely} />
          </FormField>
        </div>
        <label className="flex items-center gap-2 text-sm">
          <input type="checkbox" {...register('indefinitely')} />
          Indefinitely
        </label>
        <label className="flex items-center gap-2 text-sm">
          <input type="checkbox" {...register('recursive')} />
          Recursive (also silence the resource&apos;s children)
        </label>
        <SilencePreview
          request={previewing}
          hint={previewHint}
          onPreview={() => {
            const request = previewRequestOf(getValues());
            setPreviewHint(request ? '' : 'Pick a resource, a selector or write a filter to preview');
            setPreviewing(request);
          }}
        />
        <div className="flex gap-2">
          <Button type="submit" variant="primary" disabled={add.isPending}>
            Save
          </Button>
          <Link to={NOTIFICATION_SILENCES_PATH} className={buttonClasses({ variant: 'secondary' })}>
            Cancel
          </Link>
        </div>
      </form>
    </div>
  );
}

/** What the silence would have matched in the last days: its resources and newest notifications. */
function SilencePreview({
  request,
  hint,
  onPreview,
}: {
  request: NotificationSilencePreviewRequest | null;
  hint: string;
  onPreview: () => void;
}) {
  const preview = useSilencePreview(request);
  const data = request ? preview.data : undefined;
  return (
    <section aria-label="Preview" className="flex flex-col gap-2 rounded border border-gray-200 p-3">
      <div className="flex items-center gap-3">
        <h3 className="text-sm font-semibold">Preview</h3>
        <Button type="button" variant="secondary" onClick={onPreview} disabled={preview.isFetching}>
          Preview
        </Button>
      </div>
      {hint && <p className="text-sm text-gray-600">{hint}</p>}
      {request && preview.isError && (
        <p role="alert" className="text-sm text-red-700">
          {preview.error.message}
        </p>
      )}
      {request && preview.isPending && <p className="text-sm text-gray-600">Loading preview…</p>}
      {data && (
        <>
          <p className="text-sm">
            {data.total === 0
              ? `Would have matched no notifications in the last ${data.days} days`
              : `Would have matched ${data.total} notification${data.total === 1 ? '' : 's'} about ${
                  data.resources.length
                } resource${data.resources.length === 1 ? '' : 's'} in the last ${data.days} days`}
          </p>
          {data.resources.length > 0 && (
            <ul aria-label="Matched resources" className="flex flex-wrap gap-2 text-sm">
              {data.resources.map((resource) => (
                <li key={resource.id} className="rounded bg-gray-100 px-2 py-0.5">
                  {resource.name} ({resource.count})
                </li>
              ))}
            </ul>
          )}
          {data.notifications.length > 0 && (
            <table aria-label="Matched notifications" className="text-left text-sm">
              <thead>
                <tr>
                  <th className="pr-3 font-medium">Status</th>
                  <th className="pr-3 font-medium">Title</th>
                  <th className="font-medium">Created</th>
                </tr>
              </thead>
              <tbody>
                {data.notifications.slice(0, 20).map((row) => (
                  <tr key={row.id}>
                    <td className="pr-3">
                      <SendStatusBadge status={row.status} />
                    </td>
                    <td className="pr-3">{row.title ?? row.source_event}</td>
                    <td>
                      <FormattedDate value={row.created_at} />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </>
      )}
      {!request && !hint && (
        <p className="text-sm text-gray-600">
          See what this silence would have matched in the last {SILENCE_PREVIEW_DEFAULT_DAYS} days.
        </p>
      )}
    </section>
  );
}
