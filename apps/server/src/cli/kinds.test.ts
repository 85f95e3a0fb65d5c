import { describe, expect, it } from 'vitest';
import { SERVER_MODULES } from '../modules.js';
import { CLI_KIND_LOADERS, cliKindLoaders } from './kinds.js';

describe('the CLI kinds list', () => {
  it('is every module kind, in module order, each under its name (apply and get load it instead of the modules)', async () => {
    const fromModules = SERVER_MODULES.flatMap((module) => module.kinds ?? []);
    const loaded = await Promise.all(CLI_KIND_LOADERS.map(([, load]) => load()));
    expect(loaded).toEqual(fromModules);
    expect(CLI_KIND_LOADERS.map(([name]) => name)).toEqual(fromModules.map((kind) => kind.kind));
  });

  it('loads only the kinds named, in list order, and every kind for an unknown name or none', async () => {
    const names = async (kindNames?: string[]) =>
      (await Promise.all(cliKindLoaders(kindNames).map((load) => load()))).map((kind) => kind.kind);
    expect(await names(['Playbook', 'Canary', 'Canary'])).toEqual(['Canary', 'Playbook']);
    const every = CLI_KIND_LOADERS.map(([name]) => name);
    expect(await names(['Canary', 'Kanary'])).toEqual(every);
    expect(await names([])).toEqual(every);
    expect(await names()).toEqual(every);
  });
});
