// argon2id with OWASP's parameters (m=19456 KiB, t=2, p=1). The one module that imports argon2.
import { hash, verify } from '@node-rs/argon2';

const options = { memoryCost: 19456, timeCost: 2, parallelism: 1 } as const;

export function hashPassword(password: string): Promise<string> {
  return hash(password, options);
}

export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  try {
    return await verify(passwordHash, password);
  } catch {
    return false;
  }
}

// Verifying against this when an account does not exist makes a wrong email cost what a wrong
// password costs, so timing does not tell which accounts exist. Fixed, with the same parameters, so
// no first request pays for making it.
export const decoyHash =
  '$argon2id$v=19$m=19456,t=2,p=1$OafGnZvD6GGAX3b+zCscBw$ZEb7E/915Hn4VWrw3Xc540ngwUqHeTuzA836YdseqXo';
