import type { ReactNode } from 'react';
import { Link, useNavigate } from 'react-router';
import { buttonClasses } from '../button/button';
import { DataTable, type DataTableColumn } from '../data-table/data-table';

/** The Name column of a resource list: a link to the row's editor (the row click opens it too). */
export function resourceNameColumn<Row extends { id: string; name: string | null }>(
  editorPath: (id: string) => string,
): DataTableColumn<Row> {
  return {
    id: 'name',
    header: 'Name',
    accessorKey: 'name',
    cell: ({ row }) => (
      <Link
        to={editorPath(row.original.id)}
        onClick={(event) => event.stopPropagation()}
        className="text-blue-700 hover:underline"
      >
        {row.original.name ?? row.original.id}
      </Link>
    ),
  };
}

export interface ResourceListPageProps<Row extends { id: string }> {
  /** Heading and the section's accessible name ('Scrapers'). */
  title: string;
  /** Accessible name of the table; defaults to `title`. */
  tableLabel?: string;
  /** The DataTable's id and default order (the caller pages its query with the same). */
  table: { tableId: string; defaultSortOrder: 'asc' | 'desc' };
  columns: DataTableColumn<Row>[];
  /** One server page of rows. */
  query: { data?: { rows: Row[]; total: number }; isPending: boolean; isError: boolean; error: unknown };
  /** Where a row opens. */
  editorPath(id: string): string;
  /** The Add button ('Add Scraper' → `/catalog/scrapers/new`), for users who may write. */
  add?: { label: string; to: string };
  emptyMessage?: ReactNode;
}

/**
 * A settings-style list of one resource kind (settings §2.4: health checks, scrapers): heading
 * with Add, and the server-paged table whose rows open the editor.
 */
export function ResourceListPage<Row extends { id: string }>({
  title,
  tableLabel,
  table,
  columns,
  query,
  editorPath,
  add,
  emptyMessage,
}: ResourceListPageProps<Row>) {
  const navigate = useNavigate();
  if (query.isError && !query.data) throw query.error;
  return (
    <section aria-label={title} className="flex flex-col gap-4">
      <div className="flex items-center justify-between">
        <h2 className="text-base font-semibold text-gray-900">{title}</h2>
        {add && (
          <Link to={add.to} className={buttonClasses({ variant: 'primary' })}>
            {add.label}
          </Link>
        )}
      </div>
      <DataTable
        {...table}
        label={tableLabel ?? title}
        columns={columns}
        data={query.data?.rows ?? []}
        totalRowCount={query.data?.total ?? 0}
        isLoading={query.isPending}
        emptyMessage={emptyMessage}
        getRowId={(row) => row.id}
        onRowClick={(row) => void navigate(editorPath(row.id))}
      />
    </section>
  );
}
