import type { NotificationSilenceRequest } from '@opsdeck/contracts';
import { useState } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { Link, useNavigate } from 'react-router';
import { Button, buttonClasses } from '../../../components/button/button';
import { FormField } from '../../../components/form-field/form-field';
import { validationResolver } from '../../../components/form-field/validation-resolver';
import { Input } from '../../../components/input/input';
import { Select } from '../../../components/select/select';
import { Textarea } from '../../../components/textarea/textarea';
import { showErrorToast, showSuccessToast } from '../../../components/toasts/toasts';
import {
  RESOURCE_KINDS,
  useAddSilence,
  useResourceOptions,
  type SilenceResourceKind,
} from '../api/notifications';
import { validateSilenceForm, type SilenceFormValues } from '../lib/silence-form';
import { NOTIFICATION_SILENCES_PATH, NotificationTabs } from './notification-tabs';

const resolver = validationResolver((values: SilenceFormValues) => validateSilenceForm(values));

/** /notifications/silences/add (needs write): resource picker, filter, from/until with Indefinitely, recursive. */
export function AddSilencePage() {
  const navigate = useNavigate();
  const add = useAddSilence();
  const [search, setSearch] = useState('');
  const {
    register,
    handleSubmit,
    control,
    setValue,
    formState: { errors },
  } = useForm<SilenceFormValues, unknown, NotificationSilenceRequest>({
    resolver,
    defaultValues: {
      kind: 'check',
      resourceId: '',
      filter: '',
      description: '',
      from: '',
      until: '',
      indefinitely: false,
      recursive: false,
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
            <Select
              {...register('kind', {
                onChange: () => setValue('resourceId', ''),
              })}
            >
              {(Object.keys(RESOURCE_KINDS) as SilenceResourceKind[]).map((value) => (
                <option key={value} value={value}>
                  {RESOURCE_KINDS[value].label}
                </option>
              ))}
            </Select>
          </FormField>
          <FormField label="Find resource">
            <Input value={search} onChange={(event) => setSearch(event.target.value)} placeholder="Name" />
          </FormField>
          <FormField label="Resource" error={errors.resourceId?.message}>
            <Select {...register('resourceId')}>
              <option value="">{options.isPending ? 'Loading…' : 'None'}</option>
              {(options.data ?? []).map((option) => (
                <option key={option.id} value={option.id}>
                  {option.name}
                </option>
              ))}
            </Select>
          </FormField>
        </div>
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
