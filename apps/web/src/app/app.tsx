import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { AboutPanel } from '../features/about/components/about-panel';

/** Default stale time for cached queries (spec core §9). */
const DEFAULT_STALE_TIME_MS = 300_000;

const queryClient = new QueryClient({
  defaultOptions: { queries: { staleTime: DEFAULT_STALE_TIME_MS, retry: 1 } },
});

export function App() {
  return (
    <QueryClientProvider client={queryClient}>
      <main className="mx-auto max-w-3xl p-8">
        <h1 className="text-2xl font-semibold text-gray-900">Opsdeck</h1>
        <AboutPanel />
      </main>
    </QueryClientProvider>
  );
}
