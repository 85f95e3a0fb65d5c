import { Field, Input, Label, Switch } from '@headlessui/react';
import { Settings2 } from 'lucide-react';
import { useMemo } from 'react';
import { DATE_TIME_FORMATS, type DateTimeFormat } from '../../lib/format/date';
import { BROWSER_TIMEZONE } from '../../lib/format/dayjs';
import { CARD_WIDTH } from '../../lib/preferences/preferences';
import { listTimezones } from '../../lib/preferences/timezones';
import { usePreferences, useShowHiddenComponents } from '../../lib/preferences/use-preferences';
import { Popover } from '../popover/popover';
import { iconButtonClasses } from '../icon-button/icon-button';
import { SelectMenu } from '../select-menu/select-menu';

const FORMAT_LABELS: Record<DateTimeFormat, string> = {
  short: 'Short (relative)',
  medium: 'Medium',
  full: 'Full',
  timestamp: 'Timestamp',
};

export interface PreferencesPopoverProps {
  className?: string;
}

/** The header's preferences (settings §2.9). Needs a router for Show hidden components. */
export function PreferencesPopover({ className }: PreferencesPopoverProps) {
  return (
    <Popover
      className={className}
      trigger={<Settings2 className="size-5" aria-hidden />}
      triggerLabel="Preferences"
      triggerClassName={iconButtonClasses({ size: 'md' })}
      panelLabel="Preferences"
      placement="bottom end"
      panelClassName="w-80 p-4"
    >
      <PreferencesForm />
    </Popover>
  );
}

function PreferencesForm() {
  const { showDeletedConfigs, cardWidth, dateTimeFormat, timezone, setPreference } = usePreferences();
  const [showHiddenComponents, setShowHiddenComponents] = useShowHiddenComponents();
  // Computed when the panel opens: reading ~400 zone offsets is not free.
  const timezones = useMemo(() => listTimezones(), []);
  // A stored zone may be an alias the runtime lists under another name (Asia/Kolkata, Asia/Calcutta).
  const storedElsewhere =
    timezone !== BROWSER_TIMEZONE && !timezones.some((option) => option.zone === timezone);

  return (
    <div className="flex flex-col gap-4">
      <ToggleField
        label="Show hidden components"
        checked={showHiddenComponents}
        onChange={setShowHiddenComponents}
      />
      <ToggleField
        label="Show deleted configs"
        checked={showDeletedConfigs}
        onChange={(value) => setPreference('showDeletedConfigs', value)}
      />
      <Field className="flex flex-col gap-1">
        <div className="flex items-center justify-between">
          <Label className="font-medium text-gray-700">Card Width</Label>
          <span className="text-xs text-gray-500 tabular-nums">{cardWidth}px</span>
        </div>
        <Input
          type="range"
          min={CARD_WIDTH.min}
          max={CARD_WIDTH.max}
          step={CARD_WIDTH.step}
          value={cardWidth}
          onChange={(event) => setPreference('cardWidth', Number(event.target.value))}
          className="w-full accent-blue-600"
        />
      </Field>
      <div className="flex flex-col gap-1">
        <span className="font-medium text-gray-700" aria-hidden>
          Date/Time Format
        </span>
        <SelectMenu
          aria-label="Date/Time Format"
          className="w-full"
          value={dateTimeFormat}
          onChange={(value) => setPreference('dateTimeFormat', value)}
          options={DATE_TIME_FORMATS.map((format) => ({ value: format, label: FORMAT_LABELS[format] }))}
        />
      </div>
      <div className="flex flex-col gap-1">
        <span className="font-medium text-gray-700" aria-hidden>
          Timezone
        </span>
        <SelectMenu
          aria-label="Timezone"
          className="w-full"
          value={timezone}
          onChange={(value) => setPreference('timezone', value)}
          options={[
            { value: BROWSER_TIMEZONE, label: 'Browser default' },
            ...(storedElsewhere ? [{ value: timezone, label: timezone }] : []),
            ...timezones.map((option) => ({ value: option.zone, label: option.label })),
          ]}
        />
      </div>
    </div>
  );
}

function ToggleField({
  label,
  checked,
  onChange,
}: {
  label: string;
  checked: boolean;
  onChange(value: boolean): void;
}) {
  return (
    <Field className="flex items-center justify-between gap-3">
      <Label className="font-medium text-gray-700">{label}</Label>
      <Switch
        checked={checked}
        onChange={onChange}
        className="group relative inline-flex h-5 w-9 shrink-0 items-center rounded-full bg-gray-300 transition data-[checked]:bg-blue-600"
      >
        <span className="inline-block size-4 translate-x-0.5 rounded-full bg-white shadow transition group-data-[checked]:translate-x-4" />
      </Switch>
    </Field>
  );
}
