import { QueryClientProvider } from '@tanstack/react-query';
import { createBrowserRouter, RouterProvider } from 'react-router';
import { AppToaster } from '../components/toasts/app-toaster';
import { redirectToLogin } from '../features/auth';
import { setUnauthorizedHandler } from '../lib/api-client';
import { CurrentAccessProvider } from './current-access';
import { createQueryClient } from './query-client';
import { withRouteFallbacks } from './errors/route-fallbacks';
import { ShellLayout } from './layout/shell-layout';
import { appRoutes } from './route-table';

// Spec core §8: a 401 on any call goes to the login screen, coming back to this page.
setUnauthorizedHandler(() => redirectToLogin());

const queryClient = createQueryClient();
// Unknown addresses and page errors land on the not-found page and the error screen, in the shell.
const router = createBrowserRouter(withRouteFallbacks(appRoutes, ShellLayout));

export function App() {
  return (
    <QueryClientProvider client={queryClient}>
      <CurrentAccessProvider>
        <RouterProvider router={router} />
      </CurrentAccessProvider>
      <AppToaster />
    </QueryClientProvider>
  );
}
