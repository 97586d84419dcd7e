export { startStack, type Stack, type StackOptions, type AgentHandle } from './stack';
export { startPostgres, findPostgresBin, freePort } from './postgres.runner';
export { readSse } from './sse-reader';
export { loopbackPrefix, loopbackAddress } from './loopback';
export { makeTestCertificates, type TestCertificates } from './test-certificates';
export { startSeaweedFs, findWeed, type SeaweedFs } from './seaweedfs.runner';
