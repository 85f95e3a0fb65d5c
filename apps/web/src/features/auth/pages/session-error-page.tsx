import { useSearchParams } from 'react-router';
import { AuthLayout, GoBackButton } from '../components/auth-layout';

export const BAD_SESSION_MESSAGE =
  'Bad Session. Please try logging out and logging in again, if the problem persist, please contact us.';

/** `/error/session?error_code=…`: the bad-session page of spec core §2. */
export function SessionErrorPage() {
  const [params] = useSearchParams();
  const message = params.get('error_code') === 'BAD_SESSION' ? BAD_SESSION_MESSAGE : 'Unknown error';
  return (
    <AuthLayout title="Session error">
      <p role="alert" className="text-sm text-gray-800">
        {message}
      </p>
      <GoBackButton />
    </AuthLayout>
  );
}
