import fs from 'node:fs';
import js from '@eslint/js';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';
import importX from 'eslint-plugin-import-x';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

// Each folder of apps/server/src/modules and apps/web/src/features is a zone of its own.
const SERVER_MODULES = fs.readdirSync(new URL('apps/server/src/modules/', import.meta.url));
const WEB_FEATURES = fs.readdirSync(new URL('apps/web/src/features/', import.meta.url));

export default tseslint.config(
  {
    ignores: [
      '**/dist/**',
      '**/node_modules/**',
      '.data/**',
      '.test-data/**',
      'test-results/**',
      'playwright-report/**',
      'bench/results/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      'no-console': 'error',
    },
  },
  // No import cycles, inside a module or between modules (issue 19 §2): a cycle is a seam in the
  // wrong place (move the shared part below both, as src/resource-kinds is below every module).
  // Type-only imports are left out: they vanish at runtime.
  {
    files: ['apps/server/src/**/*.ts', 'packages/*/src/**/*.ts', 'apps/web/src/**/*.{ts,tsx}'],
    ignores: ['**/*.test.ts', '**/*.test.tsx'],
    plugins: { 'import-x': importX },
    settings: {
      'import-x/extensions': ['.ts', '.tsx', '.js'],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts', '.tsx'] },
      'import-x/resolver-next': [
        createTypeScriptImportResolver({
          noWarnOnMultipleProjects: true,
          project: [
            'apps/server/tsconfig.json',
            'apps/web/tsconfig.json',
            'packages/contracts/tsconfig.json',
          ],
        }),
      ],
    },
    rules: {
      'import-x/no-cycle': ['error', { ignoreExternal: true, allowUnsafeDynamicCyclicDependency: false }],
    },
  },
  // Server layering (issue 19 §2): platform/ imports no module; a module reaches another only
  // through that module's index.js (its exported service); the expressions have one entry point.
  {
    files: ['apps/server/src/platform/**/*.ts'],
    ignores: ['**/*.test.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '(^|/)(modules|data-api|expressions)/|^(\\.\\./)+(app|workers|main)\\.js$',
              message:
                'platform/ is below every module: it imports no module (compose in app.ts or config.ts).',
            },
          ],
        },
      ],
    },
  },
  ...SERVER_MODULES.map((module) => ({
    files: [`apps/server/src/modules/${module}/**/*.ts`],
    ignores: ['**/*.test.ts', '**/test-fixtures/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: `^(\\.\\./)+(?!${module}/)(${SERVER_MODULES.join('|')})/(?!index\\.js$)`,
              message: "A module reaches another only through that module's index.js (its exported service).",
            },
            {
              regex: '(^|/)expressions/(?!index\\.js$)',
              message: 'Expressions have one entry point: expressions/index.js.',
            },
          ],
        },
      ],
    },
  })),
  {
    files: ['apps/web/src/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      // Web layering (STYLE.md): app -> features -> shared. Features never import each other.
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['../../features/*', '../../../features/*'],
              message: 'Features do not import each other; compose them in app/.',
            },
          ],
        },
      ],
    },
  },
  ...WEB_FEATURES.map((feature) => ({
    files: [`apps/web/src/features/${feature}/**/*.{ts,tsx}`],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: `^(\\.\\./)+(features/)?(?!${feature}/)(${WEB_FEATURES.join('|')})/`,
              message: 'Features do not import each other; compose them in app/.',
            },
          ],
        },
      ],
    },
  })),
  {
    files: ['apps/web/src/app/**/*.{ts,tsx}'],
    rules: { 'no-restricted-imports': 'off' },
  },
);
