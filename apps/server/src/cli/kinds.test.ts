import { describe, expect, it } from 'vitest';
import { SERVER_MODULES } from '../modules.js';
import { CLI_RESOURCE_KINDS } from './kinds.js';

describe('the CLI kinds list', () => {
  it('is every module kind, in module order (apply and get load it instead of the modules)', () => {
    const fromModules = SERVER_MODULES.flatMap((module) => module.kinds ?? []);
    expect(CLI_RESOURCE_KINDS).toEqual(fromModules);
  });
});
