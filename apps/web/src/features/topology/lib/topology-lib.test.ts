import { describe, expect, it } from 'vitest';
import { checkPath, childrenSummary, headlineProperties, propertyValue } from './topology-lib';

describe('topology lib', () => {
  it('shows headline properties, else the first three', () => {
    const properties = [{ name: 'a' }, { name: 'b', headline: true }, { name: 'c' }, { name: 'd' }];
    expect(headlineProperties({ properties }).map((property) => property.name)).toEqual(['b']);
    const plain = properties.map(({ name }) => ({ name }));
    expect(headlineProperties({ properties: plain }).map((property) => property.name)).toEqual([
      'a',
      'b',
      'c',
    ]);
  });

  it('writes values with units and counts children worst first', () => {
    expect(propertyValue({ value: 30, unit: 'MB' })).toBe('30 MB');
    expect(propertyValue({ value: 0 })).toBe('0');
    expect(propertyValue({ text: 'team-api' })).toBe('team-api');
    expect(childrenSummary({ healthy: 2, unhealthy: 1, warning: 0, unknown: 3 })).toBe(
      '1 unhealthy · 2 healthy · 3 unknown',
    );
    expect(childrenSummary({ healthy: 0, unhealthy: 0, warning: 0, unknown: 0 })).toBe('');
  });

  it('links a check to the health page over the last hour', () => {
    expect(checkPath('c1')).toBe('/health?checkId=c1&timeRange=1h');
  });
});
