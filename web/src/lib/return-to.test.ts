import { describe, expect, it } from 'vitest';
import { createReturnToState, readReturnTo } from './return-to';

describe('returnTo', () => {
  it('round-trips path, query and hash', () => {
    const state = createReturnToState({ pathname: '/pending', search: '?resource=vm-1', hash: '#top' });
    expect(readReturnTo(state)).toBe('/pending?resource=vm-1#top');
  });

  it('also reads a location object', () => {
    expect(readReturnTo({ returnTo: { pathname: '/tenants', search: '', hash: '' } })).toBe('/tenants');
  });

  it('ignores a missing state or anything that would leave the site', () => {
    expect(readReturnTo(null)).toBeNull();
    expect(readReturnTo({})).toBeNull();
    expect(readReturnTo({ returnTo: 'https://evil.example' })).toBeNull();
    expect(readReturnTo({ returnTo: '//evil.example/home' })).toBeNull();
    expect(readReturnTo({ returnTo: '/\\evil.example' })).toBeNull();
  });
});
