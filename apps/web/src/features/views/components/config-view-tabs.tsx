import clsx from 'clsx';
import { NavLink } from 'react-router';
import { useConfigViews } from '../api/views-list';

/** Tabs of /catalog/{id}: one per view attached to the config item's type (`/catalog/{id}/view/{viewId}`). */
export function ConfigViewTabs({ configId }: { configId: string }) {
  const views = useConfigViews(configId);
  return (
    <>
      {(views.data ?? []).map((view) => (
        <NavLink
          key={view.id}
          to={`/catalog/${encodeURIComponent(configId)}/view/${encodeURIComponent(view.id)}`}
          className={({ isActive }) =>
            clsx(
              '-mb-px border-b-2 px-3 py-1.5 text-sm',
              isActive
                ? 'border-blue-600 text-blue-700'
                : 'border-transparent text-gray-600 hover:text-gray-900',
            )
          }
        >
          {view.title ?? view.name}
        </NavLink>
      ))}
    </>
  );
}
