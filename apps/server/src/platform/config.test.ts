import { describe, expect, it } from 'vitest';
import { ConfigError, loadPlatformConfig } from './config.js';

function problemsOf(environment: Record<string, string>): string[] {
  try {
    loadPlatformConfig(environment);
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
  return [];
}

describe('TRUSTED_PROXIES and METRICS_TOKEN', () => {
  it('default to no trusted proxy and an open /metrics', () => {
    expect(loadPlatformConfig({})).toMatchObject({ trustedProxies: [], metricsToken: undefined });
  });

  it('read addresses, CIDR ranges and range names', () => {
    expect(
      loadPlatformConfig({ TRUSTED_PROXIES: '10.0.0.1, 172.16.0.0/12,fd00::/8 ,loopback' }).trustedProxies,
    ).toEqual(['10.0.0.1', '172.16.0.0/12', 'fd00::/8', 'loopback']);
    expect(loadPlatformConfig({ METRICS_TOKEN: 'a-long-enough-token' }).metricsToken).toBe(
      'a-long-enough-token',
    );
  });

  it('name the variable when a value is wrong', () => {
    for (const value of ['proxy.example.com', '10.0.0.0/33', '10.0.0.1/8/1', '*']) {
      expect(problemsOf({ TRUSTED_PROXIES: value }), value).toEqual([
        expect.stringMatching(/^TRUSTED_PROXIES: must be a comma-separated list of IP addresses/),
      ]);
    }
    expect(problemsOf({ METRICS_TOKEN: 'short' })).toEqual(['METRICS_TOKEN: must be at least 16 characters']);
  });
});
