import { describe, expect, it } from 'vitest';
import { describeStorageError, isStorageError } from './s3-storage';

const ref = { endpoint: 'http://s3.local:8333', bucket: 'backups' };
const err = (name: string, status?: number, message = '') => Object.assign(new Error(message || name), { name, $metadata: { httpStatusCode: status } });

describe('describeStorageError', () => {
  it.each([
    [err('InvalidAccessKeyId', 403), /credentials were refused \(InvalidAccessKeyId\) at http:\/\/s3.local:8333, bucket backups/],
    [err('Unknown', 403), /credentials were refused \(HTTP 403\)/],
    [err('NoSuchBucket', 404), /no bucket backups at http:\/\/s3.local:8333/],
    [err('EntityTooLarge', 400), /full, or the object too large/],
    [Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:8333'), { code: 'ECONNREFUSED' }), /unreachable at http:\/\/s3.local:8333 \(connect ECONNREFUSED/],
    [err('InternalError', 500, 'We encountered an internal error'), /InternalError \(We encountered an internal error\) at/],
  ])('%s', (e, want) => {
    const msg = describeStorageError(e, ref);
    expect(msg).toMatch(want);
    expect(isStorageError(msg)).toBe(true);
  });
  it('other messages are not the storage\'s', () => {
    expect(isStorageError('BGSAVE failed')).toBe(false);
  });
});
