import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { fetchServerFlowError } from '../api/flows';
import { AuthLayout, GoBackButton } from '../components/auth-layout';
import { readFlowError } from '../lib/flow-errors';

/**
 * `/error?id=…`: the error a sign-in screen could not handle, as JSON. The sign-in screens
 * leave it in sessionStorage; an id not there is asked of the server (where the Kratos door sends
 * a navigating browser); an id with nothing behind it (like the spec's 404) goes to /.
 */
export function FlowErrorPage() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const id = params.get('id') ?? '';
  const stored = id ? readFlowError(id) : undefined;
  const server = useQuery({
    queryKey: ['auth', 'flow-error', id],
    queryFn: () => fetchServerFlowError(id),
    enabled: id !== '' && stored === undefined,
    retry: false,
  });
  const error = stored ?? server.data;
  const settled = stored !== undefined || id === '' || !server.isPending;
  useEffect(() => {
    if (settled && error === undefined) navigate('/', { replace: true });
  }, [settled, error, navigate]);
  if (error === undefined) return null;
  return (
    <AuthLayout title="An error occurred" wide>
      <pre data-testid="flow-error" className="overflow-auto rounded-md bg-gray-50 p-3 text-xs text-gray-800">
        {JSON.stringify(error, null, 2)}
      </pre>
      <GoBackButton />
    </AuthLayout>
  );
}
