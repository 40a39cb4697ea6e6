import { describe, expect, it } from 'vitest';
import { isChangingCall } from './refuse-viewer-changes';

describe('isChangingCall', () => {
  it("counts every verb but GET, HEAD and OPTIONS, and SPEC's apply GETs, as a change", () => {
    expect(isChangingCall('POST', '/api/v1/pipeline/:id/run')).toBe(true);
    expect(isChangingCall('PUT', '/api/v1/team/role')).toBe(true);
    expect(isChangingCall('DELETE', '/api/v1/tenant/:id')).toBe(true);
    expect(isChangingCall('GET', '/api/v1/log/recommendation/apply/now')).toBe(true);
    expect(isChangingCall('GET', '/api/v1/log/recommendation')).toBe(false);
    expect(isChangingCall('HEAD', '/api/v1/team')).toBe(false);
  });

  it('leaves a Viewer their own session, profile, password, mail preferences and the preview', () => {
    expect(isChangingCall('DELETE', '/api/v1/token')).toBe(false);
    expect(isChangingCall('PUT', '/api/v1/account/details')).toBe(false);
    expect(isChangingCall('PUT', '/api/v1/customerprofile/password')).toBe(false);
    expect(isChangingCall('PUT', '/api/v1/alert/preferences')).toBe(false);
    expect(isChangingCall('POST', '/api/v1/pipeline/preview')).toBe(false);
  });
});
