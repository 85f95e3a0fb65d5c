import { Compass } from 'lucide-react';
import { Link, useLocation, useNavigate } from 'react-router';
import { Button, buttonClasses } from '../../components/button/button';

export const NOT_FOUND_TITLE = 'Page not found';

/**
 * What an unknown address shows, inside the shell so the sidebar stays usable: the address that
 * was asked for, a way back and a link to the landing page.
 */
export function NotFoundPage() {
  const location = useLocation();
  const navigate = useNavigate();
  // A tab opened on this address has nothing to go back to.
  const canGoBack = typeof window !== 'undefined' && window.history.length > 1;
  return (
    <section
      aria-labelledby="not-found-title"
      className="mx-auto flex max-w-xl flex-col items-center gap-3 p-12 text-center"
    >
      <Compass className="size-10 text-gray-400" aria-hidden />
      <h2 id="not-found-title" className="text-lg font-semibold text-gray-900">
        {NOT_FOUND_TITLE}
      </h2>
      <p className="text-sm text-gray-600">
        There is no page at{' '}
        <code className="rounded bg-gray-100 px-1 py-0.5 text-gray-800">{location.pathname}</code>.
      </p>
      <div className="flex gap-2">
        {canGoBack && <Button onClick={() => void navigate(-1)}>Go back</Button>}
        <Link to="/" className={buttonClasses({ variant: 'primary' })}>
          Go to the dashboard
        </Link>
      </div>
    </section>
  );
}
