import { SCHEDULE_PRESETS } from '@opsdeck/contracts';
import { FormField } from '../../../components/form-field/form-field';
import { Input } from '../../../components/input/input';
import { ResourceIcon } from '../../../components/resource-icon/resource-icon';
import { SelectMenu } from '../../../components/select-menu/select-menu';
import { Textarea } from '../../../components/textarea/textarea';
import {
  readScraperForm,
  SCRAPER_SPEC_TYPES,
  writeScraperForm,
  type ScraperSpecType,
} from '../lib/scraper-spec-types';

/** Settings §2.4 spec type picker: a grid of types, each with an icon and label. */
export function ScraperTypePicker({ onPick }: { onPick(type: ScraperSpecType): void }) {
  return (
    <div role="group" aria-label="Spec type" className="grid grid-cols-2 gap-2 sm:grid-cols-4">
      {SCRAPER_SPEC_TYPES.map((type) => (
        <button
          key={type.key}
          type="button"
          onClick={() => onPick(type)}
          className="flex items-center gap-2 rounded border border-gray-200 bg-white px-3 py-2 text-left text-sm hover:border-blue-400 hover:bg-blue-50"
        >
          <ResourceIcon type={type.key} className="size-5" />
          {type.label}
        </button>
      ))}
    </div>
  );
}

/**
 * The Form tab of a scraper type: schedule and the first source entry's common fields. It edits
 * the YAML text in place, so the Code tab always shows what the form set (and the reverse).
 */
export function ScraperSpecForm({
  type,
  specText,
  onChange,
  readOnly,
}: {
  type: ScraperSpecType;
  specText: string;
  onChange(text: string): void;
  readOnly: boolean;
}) {
  const form = readScraperForm(specText, type);
  if (!form.ok)
    return (
      <p
        role="alert"
        className="rounded border border-amber-200 bg-amber-50 px-3 py-2 text-sm text-amber-900"
      >
        {form.message}
      </p>
    );
  const scheduleOptions: string[] = [...SCHEDULE_PRESETS];
  if (form.schedule && !scheduleOptions.includes(form.schedule)) scheduleOptions.unshift(form.schedule);
  return (
    <div
      role="form"
      aria-label={`${type.label} scraper`}
      className="grid grid-cols-1 gap-3 text-sm md:grid-cols-2"
    >
      <FormField label="Schedule">
        <SelectMenu
          compact
          floating
          className="w-full"
          value={form.schedule}
          disabled={readOnly}
          onChange={(choice) => onChange(writeScraperForm(specText, type, undefined, choice))}
          options={[
            { value: '', label: 'No schedule (run on demand)' },
            ...scheduleOptions.map((schedule) => ({ value: schedule, label: schedule })),
          ]}
        />
      </FormField>
      {(type.fields ?? []).map((field) => {
        const value = form.values[field.key] ?? '';
        const change = (next: string) => onChange(writeScraperForm(specText, type, field, next));
        const wide = field.input === 'textarea' || field.input === 'lines';
        return (
          <FormField key={field.key} label={field.label} className={wide ? 'md:col-span-2' : undefined}>
            {field.input === 'select' ? (
              <SelectMenu
                compact
                floating
                className="w-full"
                value={value}
                disabled={readOnly}
                onChange={change}
                options={[
                  ...(value && !field.options?.includes(value) ? [value] : []),
                  ...(field.options ?? []),
                ].map((option) => ({ value: option, label: option || 'Default' }))}
              />
            ) : wide ? (
              <Textarea
                code
                value={value}
                readOnly={readOnly}
                rows={field.input === 'lines' ? 3 : 5}
                onChange={(event) => change(event.target.value)}
              />
            ) : (
              <Input
                compact
                value={value}
                readOnly={readOnly}
                placeholder={field.placeholder}
                onChange={(event) => change(event.target.value)}
              />
            )}
          </FormField>
        );
      })}
    </div>
  );
}
