// Solves a real ALTCHA challenge from the app, as the widget does, and answers what the widget puts
// in ReCaptchaResponse (base64 of the solution's JSON).
import { solveChallenge } from 'altcha-lib';
import type { TestContext } from './helper';

export async function solveCaptcha(context: TestContext): Promise<string> {
  const response = await context.app.inject({ method: 'GET', url: '/api/v1/captcha/challenge' });
  if (response.statusCode !== 200) throw new Error(`no challenge: ${response.statusCode} ${response.body}`);
  const challenge = response.json<{
    algorithm: 'SHA-256';
    challenge: string;
    maxnumber: number;
    salt: string;
    signature: string;
  }>();
  const solution = await solveChallenge(
    challenge.challenge,
    challenge.salt,
    challenge.algorithm,
    challenge.maxnumber,
  ).promise;
  if (!solution) throw new Error('challenge not solvable');
  const payload = {
    algorithm: challenge.algorithm,
    challenge: challenge.challenge,
    number: solution.number,
    salt: challenge.salt,
    signature: challenge.signature,
  };
  return Buffer.from(JSON.stringify(payload)).toString('base64');
}
