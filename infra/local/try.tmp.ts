import { Readable } from 'node:stream';
import { S3Storage } from '@strata/engine/backup';
import { startSeaweedFs } from './src/seaweedfs.runner';
const s3 = await startSeaweedFs({ dir: '/tmp/s3-weedtry3', address: '127.43.48.249' });
try {
  const st = new S3Storage({ kind: 's3', endpoint: s3.endpoint, bucket: s3.bucket, region: 'us-east-1', prefix: '', credentialsId: 'x' } as any, s3);
  const buf = Buffer.alloc(10 * 1024 * 1024, 3);
  for (let r = 0; r < 3; r++) {
    const t = performance.now();
    await Promise.all([0, 1, 2].map((i) => st.put(`b/s${i}`, Readable.from([buf]))));
    const t2 = performance.now();
    await st.put(`b/one`, Readable.from([buf]));
    console.log(`3 parallel 10MB puts ${(t2 - t).toFixed(0)} ms; one 10MB put ${(performance.now() - t2).toFixed(0)} ms`);
  }
} finally { await s3.stop(); }
