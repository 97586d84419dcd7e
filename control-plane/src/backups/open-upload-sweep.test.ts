/** The rule of the unfinished-upload sweep: under a backup's id and that backup not running. */
import { describe, expect, it } from 'vitest';
import { uploadsToAbort } from './open-upload-sweep';

const A = '0b5f3e8e-8a52-4c3e-9a53-5d7c2f1e0a11';
const B = '6f1c2d3e-4b5a-4c6d-8e7f-9a0b1c2d3e4f';

describe('uploadsToAbort', () => {
  it('aborts uploads under backups that are not running, keeps a running backup\'s and keys that are not under a backup id', () => {
    const uploads = [
      { key: `${A}/shard-0.rdb`, uploadId: '1' },
      { key: `${B}/shard-1.rdb`, uploadId: '2' },
      { key: `${B.toUpperCase()}/shard-2.rdb`, uploadId: '3' },
      { key: 'elsewhere/file.bin', uploadId: '4' },
      { key: `x${A}/shard-0.rdb`, uploadId: '5' },
      { key: A, uploadId: '6' },
    ];
    expect(uploadsToAbort(uploads, new Set([B])).map((u) => [u.uploadId, u.backupId])).toEqual([['1', A], ['6', A]]);
    expect(uploadsToAbort(uploads, new Set()).map((u) => u.uploadId)).toEqual(['1', '2', '3', '6']);
  });
});
