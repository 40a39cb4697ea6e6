// PostgreSQL cannot store or compare text holding a NUL character (it answers an error, which would
// be a 500), and no field of ours means one: every route's query, parameters and body are refused
// with 400 when a text in them holds one, before the route's own schema runs.
import type { FastifySchemaCompiler } from 'fastify';
import { badRequest } from '../lib/http-errors';

export function refuseNulText<Schema>(compile: FastifySchemaCompiler<Schema>): FastifySchemaCompiler<Schema> {
  return (route) => {
    const validate = compile(route);
    return (data) => {
      const field = findNulText(data);
      if (field === undefined) return validate(data);
      return {
        error: badRequest(`${field || 'body'}: must not contain a NUL character.`, field || undefined),
      };
    };
  };
}

// The dotted path of the first text holding a NUL ('' for the value itself), or undefined.
export function findNulText(value: unknown, at = ''): string | undefined {
  if (typeof value === 'string') return value.includes('\u0000') ? at : undefined;
  if (typeof value !== 'object' || value === null) return undefined;
  for (const [key, inner] of Object.entries(value)) {
    if (key.includes('\u0000')) return at ? `${at}.${key}` : key;
    const found = findNulText(inner, at ? `${at}.${key}` : key);
    if (found !== undefined) return found;
  }
  return undefined;
}
