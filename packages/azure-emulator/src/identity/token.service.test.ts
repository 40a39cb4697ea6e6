import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { generateFleet } from '../fleet/fleet.generator';
import { TokenService } from './token.service';

const principal = generateFleet({ seed: 42, fleetSize: 0 }).tenants[0]?.principals[0];

describe('TokenService', () => {
  it('issues JWTs naming the principal, and accepts them back', () => {
    if (!principal) throw new Error('The fleet has a principal');
    const service = new TokenService(randomBytes(32), 3599);
    const { accessToken, expiresIn } = service.issue(
      principal,
      'https://management.azure.com',
      'https://127.0.0.1:1',
    );
    expect(expiresIn).toBe(3599);
    const check = service.check(accessToken);
    expect(check).toMatchObject({
      isValid: true,
      claims: {
        tid: principal.tenantId,
        appid: principal.applicationId,
        oid: principal.objectId,
        aud: 'https://management.azure.com',
      },
    });
  });

  it('refuses forged, foreign, malformed and expired tokens', () => {
    if (!principal) throw new Error('The fleet has a principal');
    const service = new TokenService(randomBytes(32), 3599);
    const { accessToken } = service.issue(principal, 'aud', 'https://127.0.0.1:1');
    const [header, , signature] = accessToken.split('.');
    const forgedClaims = Buffer.from(JSON.stringify({ tid: principal.tenantId, exp: 9e9 })).toString(
      'base64url',
    );
    expect(service.check(`${header}.${forgedClaims}.${signature}`)).toEqual({
      isValid: false,
      reason: 'signature',
    });
    expect(new TokenService(randomBytes(32), 3599).check(accessToken)).toEqual({
      isValid: false,
      reason: 'signature',
    });
    expect(service.check('not-a-jwt')).toEqual({ isValid: false, reason: 'malformed' });
    const expired = new TokenService(randomBytes(32), 0);
    expect(expired.check(expired.issue(principal, 'aud', 'https://127.0.0.1:1').accessToken)).toEqual({
      isValid: false,
      reason: 'expired',
    });
  });
});
