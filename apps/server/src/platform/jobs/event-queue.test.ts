import { describe, expect, it } from 'vitest';
import { EventConsumers } from './event-queue.js';

describe('EventConsumers', () => {
  it('routes an event to its exact consumer before a prefix, and to the longest prefix', () => {
    const consumers = new EventConsumers();
    const exact = async (): Promise<void> => undefined;
    const broad = async (): Promise<void> => undefined;
    const narrow = async (): Promise<void> => undefined;
    consumers
      .on('notification.*', broad)
      .on('notification.email.*', narrow)
      .on('notification.email.sent', exact);
    expect(consumers.resolve('notification.email.sent')?.handler).toBe(exact);
    expect(consumers.resolve('notification.email.bounced')?.handler).toBe(narrow);
    expect(consumers.resolve('notification.slack')?.handler).toBe(broad);
    expect(consumers.resolve('incident.created')).toBeUndefined();
    expect(() => consumers.on('notification.*', broad)).toThrow('already have a consumer');
    expect(() => consumers.on('a*b', broad)).toThrow('not an event name or a prefix');
    expect(consumers.claimFilter()).toEqual({
      names: ['notification.email.sent'],
      likePatterns: ['notification.%', 'notification.email.%'],
    });
  });

  it('escapes LIKE wildcards in prefixes', () => {
    const consumers = new EventConsumers().on('100%_done\\*', async () => undefined);
    expect(consumers.claimFilter().likePatterns).toEqual(['100\\%\\_done\\\\%']);
    expect(consumers.resolve('100%_done\\x')).toBeDefined();
    expect(consumers.resolve('100x_done\\x')).toBeUndefined();
  });
});
