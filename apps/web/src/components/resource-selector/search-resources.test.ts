import { afterEach, describe, expect, it, vi } from 'vitest';
import { searchResourcesOfKind } from './search-resources';

afterEach(() => vi.unstubAllGlobals());

function answer(body: unknown, status = 200) {
  return vi.fn(async () => new Response(JSON.stringify(body), { status }));
}

const EMPTY = { checks: [], components: [], configs: [], connections: [], playbooks: [] };

describe('searchResourcesOfKind', () => {
  it('posts the typed text as one selector of the kind and returns its list as options', async () => {
    const fetch = answer({
      ...EMPTY,
      configs: [{ id: 'c1', name: 'orders-7d9', icon: null, type: 'Kubernetes::Pod', tags: {} }],
    });
    vi.stubGlobal('fetch', fetch);
    const options = await searchResourcesOfKind('configs', 'orders health=healthy');
    expect(options).toEqual([{ id: 'c1', name: 'orders-7d9', type: 'Kubernetes::Pod', icon: undefined }]);
    const [url, init] = fetch.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe('/api/resources/search');
    expect(init.method).toBe('POST');
    expect(JSON.parse(init.body as string)).toEqual({
      configs: [{ search: 'orders health=healthy', limit: 100 }],
    });
  });

  it('rejects an answer that does not fit the contract', async () => {
    vi.stubGlobal('fetch', answer({ configs: 'nope' }));
    await expect(searchResourcesOfKind('configs', 'x')).rejects.toThrow(/Unexpected response/);
  });
});
