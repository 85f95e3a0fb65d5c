import { APPLICATION_REPORT_RANGES, type ApplicationReport } from '@opsdeck/contracts';
import type { ReactNode } from 'react';
import { Link, useParams } from 'react-router';
import { Button } from '../../../components/button/button';
import { NoDetailsFound } from '../../../components/empty-state/empty-state';
import { FormField } from '../../../components/form-field/form-field';
import { SelectMenu } from '../../../components/select-menu/select-menu';
import { PageSkeleton } from '../../../components/skeleton/skeleton';
import { StatusDot } from '../../../components/status-dot/status-dot';
import { ApiError } from '../../../lib/api-client';
import { useDateFormatter } from '../../../lib/preferences';
import { enumParam, useSearchParam } from '../../../lib/url-state/search-param';
import { useApplicationReport } from '../api/applications';

const RANGE_LABELS: Record<(typeof APPLICATION_REPORT_RANGES)[number], string> = {
  '1h': 'Last hour',
  '6h': 'Last 6 hours',
  '1d': 'Last day',
  '7d': 'Last 7 days',
  '30d': 'Last 30 days',
  '90d': 'Last 90 days',
};

/**
 * Printing shows the report alone: everything else on the page (sidebar, top bar) is hidden and
 * the report fills the sheet, with sections kept whole where they fit.
 */
const PRINT_STYLES = `
@media print {
  body * { visibility: hidden; }
  #application-report, #application-report * { visibility: visible; }
  #application-report { position: absolute; inset: 0 auto auto 0; width: 100%; padding: 0; }
  #application-report .no-print { display: none; }
  #application-report section { break-inside: avoid; }
}`;

function ReportSection({ title, count, children }: { title: string; count: number; children: ReactNode }) {
  return (
    <section aria-label={title} className="flex flex-col gap-2 rounded border border-gray-200 bg-white p-3">
      <h2 className="text-sm font-semibold text-gray-900">
        {title} <span className="font-normal text-gray-500">({count})</span>
      </h2>
      {count === 0 ? <p className="text-sm text-gray-500">None</p> : children}
    </section>
  );
}

function Table({ label, headers, rows }: { label: string; headers: string[]; rows: ReactNode[][] }) {
  return (
    <table aria-label={label} className="w-full border-collapse text-xs">
      <thead className="text-left text-gray-600">
        <tr>
          {headers.map((header) => (
            <th key={header} className="border-b border-gray-200 px-2 py-1">
              {header}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {rows.map((cells, index) => (
          <tr key={index} className="border-b border-gray-100 align-top">
            {cells.map((cell, cellIndex) => (
              <td key={cellIndex} className="px-2 py-1">
                {cell}
              </td>
            ))}
          </tr>
        ))}
      </tbody>
    </table>
  );
}

const health = (value: string | null) => (
  <span className="flex items-center gap-1">
    <StatusDot status={value} label={value ?? 'unknown'} size="sm" />
    {value ?? 'unknown'}
  </span>
);

function Report({ report }: { report: ApplicationReport }) {
  const { formatDate } = useDateFormatter();
  const when = (value: string | null) => formatDate(value, { format: 'timestamp' });
  const changeRows = (changes: ApplicationReport['changes']) =>
    changes.map((change) => [
      when(change.created_at),
      <Link key="c" to={`/catalog/${change.config_id}`} className="text-blue-700 hover:underline">
        {change.config_name ?? change.config_id}
      </Link>,
      change.change_type,
      change.severity,
      change.summary,
    ]);
  return (
    <>
      <ReportSection title="Config items" count={report.configs.length}>
        <Table
          label="Config items"
          headers={['Name', 'Type', 'Environment', 'Health', 'Status']}
          rows={report.configs.map((config) => [
            <Link key="n" to={`/catalog/${config.id}`} className="text-blue-700 hover:underline">
              {config.name ?? config.id}
            </Link>,
            config.type,
            config.environment,
            health(config.health),
            config.status,
          ])}
        />
      </ReportSection>
      <ReportSection title="Components" count={report.components.length}>
        <Table
          label="Components"
          headers={['Name', 'Type', 'Health', 'Status']}
          rows={report.components.map((component) => [
            <Link key="n" to={`/topology/${component.id}`} className="text-blue-700 hover:underline">
              {component.name ?? component.id}
            </Link>,
            component.type,
            health(component.health),
            component.status,
          ])}
        />
      </ReportSection>
      <ReportSection title="Check uptime" count={report.checks.length}>
        <Table
          label="Check uptime"
          headers={['Check', 'Type', 'Health', 'Passed', 'Failed', 'Uptime']}
          rows={report.checks.map((check) => [
            check.name,
            check.type,
            health(check.health),
            check.passed,
            check.failed,
            check.uptime === null ? '-' : `${check.uptime.toFixed(2)}%`,
          ])}
        />
      </ReportSection>
      <ReportSection title="Recent changes" count={report.changes.length}>
        <Table
          label="Recent changes"
          headers={['Time', 'Config item', 'Type', 'Severity', 'Summary']}
          rows={changeRows(report.changes)}
        />
      </ReportSection>
      <ReportSection title="Insights" count={report.insights.length}>
        <Table
          label="Insights"
          headers={['Config item', 'Analyzer', 'Type', 'Severity', 'Summary', 'Last seen']}
          rows={report.insights.map((insight) => [
            insight.config_name,
            insight.analyzer,
            insight.analysis_type,
            insight.severity,
            insight.summary,
            when(insight.last_observed),
          ])}
        />
      </ReportSection>
      <ReportSection title="Incidents" count={report.incidents.length}>
        <Table
          label="Incidents"
          headers={['Title', 'Status', 'Severity', 'Type', 'Created']}
          rows={report.incidents.map((incident) => [
            <Link key="t" to={`/incidents/${incident.id}`} className="text-blue-700 hover:underline">
              {incident.title}
            </Link>,
            incident.status,
            incident.severity,
            incident.type,
            when(incident.created_at),
          ])}
        />
      </ReportSection>
      <ReportSection title="Access" count={report.access.roles.length + report.access.permissions.length}>
        <Table
          label="Role access"
          headers={['Role', 'Read', 'Write']}
          rows={report.access.roles.map((role) => [
            role.role,
            role.read ? 'yes' : 'no',
            role.write ? 'yes' : 'no',
          ])}
        />
        {report.access.permissions.length > 0 && (
          <Table
            label="Permissions"
            headers={['Subject', 'Kind', 'Action', 'Effect', 'On', 'Description']}
            rows={report.access.permissions.map((permission) => [
              permission.subject,
              permission.subject_type,
              permission.action,
              permission.deny ? 'deny' : 'allow',
              permission.resource ?? permission.object,
              permission.description,
            ])}
          />
        )}
      </ReportSection>
      <ReportSection title="Backups and restores" count={report.backups.length}>
        <Table
          label="Backups and restores"
          headers={['Time', 'Config item', 'Type', 'Severity', 'Summary']}
          rows={changeRows(report.backups)}
        />
      </ReportSection>
    </>
  );
}

/**
 * /applications/{namespace}/{name} (core §2): the audit report; the range of check uptime and
 * changes is in the URL, and Print prints the report alone.
 */
export function ApplicationReportPage() {
  const { namespace = '', name = '' } = useParams();
  const [range, setRange] = useSearchParam('range', enumParam(APPLICATION_REPORT_RANGES), '7d');
  const report = useApplicationReport(namespace, name, range);
  const { formatDate } = useDateFormatter();
  if (report.isError) {
    if (report.error instanceof ApiError && report.error.status === 404) return <NoDetailsFound />;
    throw report.error;
  }
  if (report.isPending) return <PageSkeleton label="Loading application report" />;
  const data = report.data;
  return (
    <article
      id="application-report"
      aria-label={`Audit report ${data.application.name}`}
      className="flex flex-col gap-3"
    >
      <style>{PRINT_STYLES}</style>
      <nav aria-label="Breadcrumb" className="no-print text-sm">
        <Link to="/applications" className="text-blue-700 hover:underline">
          Applications
        </Link>
        <span className="text-gray-400"> / </span>
        {data.application.namespace}/{data.application.name}
      </nav>
      <header className="flex flex-wrap items-end justify-between gap-3">
        <div>
          <h1 className="flex items-center gap-2 text-lg font-semibold text-gray-900">
            <StatusDot status={data.health} label={data.health} /> {data.application.name}
          </h1>
          {data.application.description && (
            <p className="text-sm text-gray-600">{data.application.description}</p>
          )}
          <p className="text-xs text-gray-500">
            {data.application.sections.map((section) => section.title).join(' · ')}
            {data.application.sections.length > 0 && ' · '}
            {RANGE_LABELS[range]}: {formatDate(data.range.from, { format: 'timestamp' })} to{' '}
            {formatDate(data.range.to, { format: 'timestamp' })} · generated{' '}
            {formatDate(data.generatedAt, { format: 'timestamp' })}
          </p>
        </div>
        <div className="no-print flex items-end gap-2">
          <FormField label="Range">
            <SelectMenu
              compact
              value={range}
              onChange={(value) => setRange(value as typeof range)}
              options={APPLICATION_REPORT_RANGES.map((value) => ({ value, label: RANGE_LABELS[value] }))}
            />
          </FormField>
          <Button onClick={() => window.print()}>Print</Button>
        </div>
      </header>
      <Report report={data} />
    </article>
  );
}
