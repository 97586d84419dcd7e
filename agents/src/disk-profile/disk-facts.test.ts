import { describe, expect, it } from 'vitest';
import { mountOf, parseMountinfo } from './disk-facts';

const MOUNTINFO = `22 1 254:0 / / rw,relatime shared:1 - ext4 /dev/vda rw
30 22 0:26 / /tmp rw,nosuid,nodev shared:5 - tmpfs tmpfs rw,size=1024k
31 22 0:27 / /srv/my\\040data rw,noatime - xfs /dev/sdb1 rw`;

describe('the data volume from mountinfo', () => {
  const mounts = parseMountinfo(MOUNTINFO);
  it('the longest mount point holding the directory', () => {
    expect(mountOf(mounts, '/work/x')).toMatchObject({ fsType: 'ext4', source: '/dev/vda', options: 'rw,relatime', majorMinor: '254:0' });
    expect(mountOf(mounts, '/tmp/a/b')).toMatchObject({ fsType: 'tmpfs' });
    expect(mountOf(mounts, '/tmpfoo')).toMatchObject({ fsType: 'ext4' });
    expect(mountOf(mounts, '/srv/my data/node-1')).toMatchObject({ fsType: 'xfs', options: 'rw,noatime', source: '/dev/sdb1' });
  });
});
