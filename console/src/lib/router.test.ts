import { describe, expect, it } from 'vitest';
import { matchPath } from './router';

describe('matchPath', () => {
  it.each([
    ['/clusters', '/clusters', {}],
    ['/clusters', '/clusters/', {}],
    ['/clusters/:id/:tab?', '/clusters/abc', { id: 'abc' }],
    ['/clusters/:id/:tab?', '/clusters/abc/activity', { id: 'abc', tab: 'activity' }],
    ['/clusters/new', '/clusters/new', {}],
    ['/clusters', '/clusters/abc', null],
    ['/nodes', '/clusters', null],
  ])('%s ~ %s', (pattern, path, expected) => {
    expect(matchPath(pattern, path)).toEqual(expected);
  });
});
