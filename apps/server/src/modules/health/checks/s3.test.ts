import { describe, expect, it } from 'vitest';
import { s3Check, s3Url } from './s3.js';

describe('s3 check addressing', () => {
  it('addresses the bucket in the path (usePathStyle) or in the host name', () => {
    expect(s3Url('http://127.0.0.1:9000', 'backups', 'canary/a b.txt', true).toString()).toBe(
      'http://127.0.0.1:9000/backups/canary/a%20b.txt',
    );
    expect(s3Url('https://s3.eu-west-1.amazonaws.com', 'backups', 'probe', false).toString()).toBe(
      'https://backups.s3.eu-west-1.amazonaws.com/probe',
    );
    expect(s3Url('https://minio.example/storage/', 'b', '', true).toString()).toBe(
      'https://minio.example/storage/b/',
    );
  });

  it('names the missing field of an entry', () => {
    expect(() => s3Check.parse({ name: 'x', objectPath: 'p' })).toThrow(/bucketName/);
    expect(() => s3Check.parse({ name: 'x', bucketName: 'b' })).toThrow(/objectPath/);
    expect(s3Check.endpoint(s3Check.parse({ name: 'x', bucketName: 'b', objectPath: 'p/q' }))).toBe(
      's3://b/p/q',
    );
  });
});
