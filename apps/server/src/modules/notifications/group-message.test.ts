import { describe, expect, it } from 'vitest';
import { GROUP_MESSAGE_MAX_RESOURCES, groupMessage } from './delivery.js';

const message = { title: 'Check a has failed', body: 'Check **a** has failed.' };

describe('groupMessage', () => {
  it('keeps a group of one as it is, with its resource listed', () => {
    expect(
      groupMessage(message, [
        { resource_type: 'check', resource_id: 'x', resource: { name: 'a', type: 'http' } },
      ]),
    ).toEqual({
      title: 'Check a has failed',
      body: 'Check **a** has failed.\n\n1 resource in this group:\n- a (check http)',
    });
  });

  it('lists at most the limit and counts the rest; a resource without a name shows its id', () => {
    const grouped = Array.from({ length: GROUP_MESSAGE_MAX_RESOURCES + 3 }, (_, index) => ({
      resource_type: 'config',
      resource_id: `id-${index}`,
      resource: index === 1 ? null : { name: `pod-${index}` },
    }));
    const result = groupMessage(message, grouped);
    expect(result.title).toBe(`Check a has failed (and ${GROUP_MESSAGE_MAX_RESOURCES + 2} more)`);
    const lines = result.body.split('\n');
    expect(lines[2]).toBe(`${GROUP_MESSAGE_MAX_RESOURCES + 3} resources in this group:`);
    expect(lines[3]).toBe('- pod-0 (config)');
    expect(lines[4]).toBe('- id-1 (config)');
    expect(lines).toHaveLength(3 + GROUP_MESSAGE_MAX_RESOURCES + 1);
    expect(lines.at(-1)).toBe('- and 3 more');
  });
});
