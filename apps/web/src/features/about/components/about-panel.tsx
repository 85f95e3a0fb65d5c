import { useAbout } from '../api/get-about';

/** What this server is: version, host and database, read from the running backend. */
export function AboutPanel() {
  const about = useAbout();
  if (about.isPending) return <p className="mt-4 text-gray-500">Loading…</p>;
  if (about.isError)
    return (
      <p className="mt-4 text-red-700" role="alert">
        {about.error.message}
      </p>
    );
  return (
    <dl className="mt-4 grid grid-cols-[max-content_1fr] gap-x-6 gap-y-1 text-sm">
      <dt className="text-gray-500">Backend version</dt>
      <dd>{about.data.version}</dd>
      <dt className="text-gray-500">Host</dt>
      <dd>{about.data.hostname}</dd>
      <dt className="text-gray-500">PostgreSQL</dt>
      <dd>{about.data.database.version}</dd>
    </dl>
  );
}
