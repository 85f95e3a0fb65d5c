import type { TestProject } from 'vitest/node';
import { startTestServer } from './postgres.js';

declare module 'vitest' {
  export interface ProvidedContext {
    testPostgres: { adminUrl: string; templateName: string };
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const server = await startTestServer();
  project.provide('testPostgres', { adminUrl: server.adminUrl, templateName: server.templateName });
  return () => server.stop();
}
