import { describe, expect, it } from 'vitest';
import { loadConfig } from './config';

const env = (url: string) => ({ STRATA_URL: url, STRATA_AGENT_DIR: '/tmp/agent-config-test' });

describe('STRATA_URL', () => {
  it('takes one control plane or a comma-separated list, in order', () => {
    expect(loadConfig(env('http://127.0.0.1:8080/')).controlPlaneUrls).toEqual(['http://127.0.0.1:8080']);
    const c = loadConfig(env('https://cp-a.example:8443, https://cp-b.example:8443/'));
    expect(c.controlPlaneUrls).toEqual(['https://cp-a.example:8443', 'https://cp-b.example:8443']);
    expect(c.controlPlaneUrl).toBe('https://cp-a.example:8443');
  });

  it.each([
    ['http://127.0.0.1:8080,cp-b:8080', /STRATA_URL: entry 2 of 2 \("cp-b:8080"\) is not a control plane URL/],
    ['http://127.0.0.1:8080,', /entry 2 of 2 \(""\)/],
    ['ftp://127.0.0.1:21', /entry 1 of 1/],
    ['http://127.0.0.1:8080/v1', /entry 1 of 1 \("http:\/\/127.0.0.1:8080\/v1"\)/],
    ['http://cp-a:8080,https://cp-b:8443', /mixes http and https/],
    ['http://cp-a:8080,http://cp-a:8080/', /names a control plane twice/],
  ])('refuses %s, naming the entry', (url, message) => {
    expect(() => loadConfig(env(url))).toThrow(message);
  });
});
