import { defineConfig } from 'vitest/config';

export default defineConfig({
  resolve: { conditions: ['source'] },
  test: {
    projects: [
      {
        extends: true,
        // Node-environment projects resolve through Vite's SSR resolver, which needs the
        // condition too (the web project must not have it: it breaks @react-aria sources).
        ssr: { resolve: { conditions: ['source'] } },
        test: {
          name: 'unit',
          include: [
            'packages/*/src/**/*.test.ts',
            'apps/server/src/**/*.test.ts',
            'apps/server/test/**/*.test.ts',
          ],
          exclude: ['**/*.int.test.ts', '**/node_modules/**'],
          environment: 'node',
          // The server's modules composed as at start (their resource kinds registered).
          setupFiles: ['apps/server/test/harness/compose-modules.ts'],
          // Some unit tests pay a deliberate cost (the slow password hash) that a loaded 2-core
          // machine stretches past vitest's 5 s default.
          testTimeout: 20_000,
        },
      },
      {
        extends: true,
        test: {
          name: 'web',
          include: ['apps/web/src/**/*.test.{ts,tsx}'],
          environment: 'jsdom',
          // DOM tests take seconds on a loaded 2-core machine; the 5 s default made them flaky.
          testTimeout: 20_000,
        },
      },
      {
        extends: true,
        ssr: { resolve: { conditions: ['source'] } },
        test: {
          name: 'server',
          include: ['apps/server/**/*.int.test.ts', 'bench/**/*.int.test.ts'],
          exclude: ['**/node_modules/**'],
          environment: 'node',
          globalSetup: ['apps/server/test/harness/global-setup.ts'],
          setupFiles: ['apps/server/test/harness/compose-modules.ts'],
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
    ],
  },
});
