import { useCallback, useState, type ReactNode } from 'react';
import { Avatar } from '../../components/avatar/avatar';
import { Badge, BADGE_TONES } from '../../components/badge/badge';
import { Button, BUTTON_VARIANTS } from '../../components/button/button';
import { Card } from '../../components/card/card';
import { Checkbox } from '../../components/checkbox/checkbox';
import { Age, FormattedDate } from '../../components/date/age';
import { EmptyState, NoDetailsFound } from '../../components/empty-state/empty-state';
import { ErrorDetails, ErrorFallback } from '../../components/error-boundary/error-screens';
import { FormField } from '../../components/form-field/form-field';
import { Input } from '../../components/input/input';
import { LabelMultiSelect } from '../../components/label-multi-select/label-multi-select';
import { ProgressBar } from '../../components/progress-bar/progress-bar';
import { ResourceSelector, type ResourceOption } from '../../components/resource-selector/resource-selector';
import { SelectMenu, optionsOf } from '../../components/select-menu/select-menu';
import { Skeleton } from '../../components/skeleton/skeleton';
import { StatusBadge } from '../../components/status-badge/status-badge';
import { Switch } from '../../components/switch/switch';
import { Tabs } from '../../components/tabs/tabs';
import { Textarea } from '../../components/textarea/textarea';
import { Tooltip } from '../../components/tooltip/tooltip';
import { UptimeBar } from '../../components/uptime-bar/uptime-bar';
import { formatBytes } from '../../lib/format/bytes';
import { formatDuration } from '../../lib/format/duration';

/** Example resources for the selector's states: 30 configs, so the list is windowed past 20. */
const EXAMPLE_RESOURCES: ResourceOption[] = Array.from({ length: 30 }, (_, index) => ({
  id: `example-${index}`,
  name: `orders-api-${String(index + 1).padStart(2, '0')}`,
  type: index % 2 ? 'Kubernetes::Pod' : 'Kubernetes::Deployment',
}));

function Example({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Card as="section" title={title} aria-label={title}>
      <div className="flex flex-wrap items-start gap-4">{children}</div>
    </Card>
  );
}

/**
 * The living catalogue of the design system (issue 30): every shared primitive in each of its
 * states, on one page. A route of development builds only (`npm run dev`, then /dev/components).
 */
export function ComponentCatalogueRoute() {
  const [severity, setSeverity] = useState('medium');
  const [labels, setLabels] = useState<string[]>(['app=orders', 'env=prod', 'team=shop', 'tier=1']);
  const [resource, setResource] = useState<ResourceOption | null>(null);
  const [switchOn, setSwitchOn] = useState(true);
  const search = useCallback(
    async (query: string) => EXAMPLE_RESOURCES.filter((option) => option.name.includes(query.toLowerCase())),
    [],
  );
  // An hour before the page opened: fixed for the page's life so re-renders show the same dates.
  const [hourAgo] = useState(() => new Date(Date.now() - 3_600_000).toISOString());
  return (
    <div className="flex flex-col gap-4">
      <Example title="Buttons">
        {BUTTON_VARIANTS.map((variant) => (
          <Button key={variant} variant={variant}>
            {variant}
          </Button>
        ))}
        <Button disabled>disabled</Button>
        <Button size="sm" variant="primary">
          small
        </Button>
      </Example>
      <Example title="Badges and status">
        {BADGE_TONES.map((tone) => (
          <Badge key={tone} tone={tone}>
            {tone}
          </Badge>
        ))}
        {['healthy', 'unhealthy', 'warning', 'unknown', 'mixed'].map((status) => (
          <StatusBadge key={status} status={status} />
        ))}
        <Avatar name="Cora Responder" />
        <Avatar name={null} size="sm" />
      </Example>
      <Example title="Progress and uptime">
        {[0, 40, 80, 95, 120].map((value) => (
          <div key={value} className="w-40">
            <ProgressBar value={value} label={`Progress ${value}`} showValue />
          </div>
        ))}
        <UptimeBar passed={99} failed={1} label="Mostly up" />
        <UptimeBar passed={1} failed={3} label="Mostly down" />
        <UptimeBar passed={0} failed={0} label="No runs" />
      </Example>
      <Example title="Selects">
        <FormField label="Severity" hint="Type a letter to jump">
          <SelectMenu
            value={severity}
            onChange={setSeverity}
            options={optionsOf(['low', 'medium', 'high', 'critical'])}
          />
        </FormField>
        <FormField label="Disabled">
          <SelectMenu value="low" onChange={() => {}} disabled options={optionsOf(['low'])} />
        </FormField>
        <FormField label="With an error" error="Please select incident severity">
          <SelectMenu value="" onChange={() => {}} options={optionsOf(['low', 'high'])} />
        </FormField>
        <LabelMultiSelect
          label="Labels"
          value={labels}
          onChange={setLabels}
          options={optionsOf(['app=orders', 'env=prod', 'team=shop', 'tier=1', 'zone=a']).map((option) => ({
            value: option.value,
          }))}
          className="w-56"
        />
        <div className="w-72">
          <ResourceSelector label="Config" search={search} value={resource} onChange={setResource} />
        </div>
      </Example>
      <Example title="Inputs">
        <FormField label="Name" hint="A short name">
          <Input placeholder="orders-api" />
        </FormField>
        <FormField label="Required" required error="This field is required">
          <Input />
        </FormField>
        <FormField label="Description">
          <Textarea rows={2} />
        </FormField>
        <Switch label="Hide Passing" checked={switchOn} onChange={setSwitchOn} />
        <Checkbox label="Definition of done" />
        <Checkbox label="Disabled" disabled />
      </Example>
      <Example title="Tabs and tooltips">
        <Tabs
          aria-label="Example tabs"
          tabs={[
            { label: 'History', content: <p className="text-sm">The check's runs.</p> },
            { label: 'Relationships', count: 2, content: <p className="text-sm">Two related items.</p> },
          ]}
        />
        <Tooltip content="The full timestamp">
          <button type="button" className="text-sm underline decoration-dotted">
            Hover or focus me
          </button>
        </Tooltip>
      </Example>
      <Example title="Dates and sizes">
        <span className="text-sm">
          Age: <Age value={hourAgo} />
        </span>
        <span className="text-sm">
          Date: <FormattedDate value={hourAgo} />
        </span>
        <span className="text-sm">
          Medium: <FormattedDate value={hourAgo} format="medium" />
        </span>
        <span className="text-sm">Duration: {formatDuration(93_000)}</span>
        <span className="text-sm">Bytes: {formatBytes(5_368_709_120)}</span>
      </Example>
      <Example title="Empty, loading and error states">
        <EmptyState />
        <NoDetailsFound />
        <div className="w-48">
          <Skeleton className="h-6" />
        </div>
        <ErrorFallback onRetry={() => {}} />
        <ErrorDetails error={new Error('Example failure')} hideStack />
      </Example>
    </div>
  );
}
