// Junk in every operation the OpenAPI document lists: every path parameter, query parameter and
// body field gets wrong types, huge and unicode-edge strings, NUL, negative and huge numbers, and
// fields go missing or extra, all with a valid session and SPEC's JSON content type. Every answer
// must be below 500, and a 4xx must leave the database as it was.
import fc from 'fast-check';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectTenant, createCloudTestContext, type CloudTestContext } from '../azure-emulator';
import { createUser, type TestUser } from '../helper';

interface JsonSchema {
  type?: string | string[];
  enum?: unknown[];
  format?: string;
  minimum?: number;
  maximum?: number;
  properties?: Record<string, JsonSchema>;
  anyOf?: JsonSchema[];
}

interface OpenApiParameter {
  name: string;
  in: 'path' | 'query' | 'header' | 'cookie';
  schema?: JsonSchema;
}

interface OpenApiOperation {
  parameters?: OpenApiParameter[];
  requestBody?: { content?: Record<string, { schema?: JsonSchema }> };
}

interface Operation {
  method: string;
  path: string;
  pathParameters: string[];
  queryParameters: Record<string, JsonSchema>;
  bodyFields: Record<string, JsonSchema> | undefined;
}

// Counting failed attempts is what a throttle is for, and minting each run's token writes a
// session: neither is a change the request under test made.
const tablesAllowedToChange = new Set(['rate_limit_hit', 'session']);
const runsPerOperation = 30;

let context: CloudTestContext;
let owner: TestUser;
let snapshotClient: pg.Client;
let operations: Operation[];
// Real identifiers of the team's own objects, so well-formed values reach the code behind the
// validators too.
let knownIds: string[];

beforeAll(async () => {
  context = await createCloudTestContext({ emulator: { fleetSize: 6 } });
  owner = await createUser(context);
  await context.container.inventory.syncTenant(await connectTenant(context, owner.teamId, 0, 0));
  snapshotClient = new pg.Client({ connectionString: context.databaseUrl });
  await snapshotClient.connect();
  const tenants = await context.container.tenants.listTenants(owner.teamId);
  const resources = await snapshotClient.query<{ arm_id: string }>('select arm_id from resource limit 5');
  knownIds = [...tenants.map((tenant) => tenant.Id), ...resources.rows.map((row) => row.arm_id), owner.email];
  const document = (await context.app.inject({ method: 'GET', url: '/api/docs/json' })).json<{
    paths: Record<string, Record<string, OpenApiOperation>>;
  }>();
  operations = Object.entries(document.paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, operation]) => readOperation(path, method, operation)),
  );
});
afterAll(async () => {
  await snapshotClient.end();
  await context.close();
});

function readOperation(path: string, method: string, operation: OpenApiOperation): Operation {
  const parameters = operation.parameters ?? [];
  const jsonBody = operation.requestBody?.content?.['application/json']?.schema;
  return {
    method: method.toUpperCase(),
    path,
    pathParameters: [...path.matchAll(/\{([^}]+)\}/g)].map((match) => match[1]!),
    queryParameters: Object.fromEntries(
      parameters
        .filter((parameter) => parameter.in === 'query')
        .map(({ name, schema }) => [name, schema ?? {}]),
    ),
    bodyFields: jsonBody ? (jsonBody.properties ?? {}) : undefined,
  };
}

// Every table's rows, each reduced to one digest, so a 4xx that wrote anything shows up. One query
// for all tables, built once: the fuzzer takes thousands of these.
let digestQuery: string | undefined;

async function readDatabaseDigest(): Promise<Record<string, string>> {
  if (!digestQuery) {
    const { rows } = await snapshotClient.query<{ table_name: string }>(
      // A partition's rows are in its partitioned table's digest (the metric tables, migration 0021).
      `select table_name from information_schema.tables
       where table_schema = 'public' and table_type = 'BASE TABLE' and table_name not like '\\_\\_%'
         and not exists (select 1 from pg_inherits join pg_class on pg_class.oid = pg_inherits.inhrelid
                         where pg_class.relname = table_name and pg_class.relnamespace = 'public'::regnamespace)`,
    );
    digestQuery = rows
      .filter(({ table_name: table }) => !tablesAllowedToChange.has(table))
      .map(
        ({ table_name: table }) =>
          `select '${table}' as name, md5(coalesce(string_agg(t::text, '|' order by t::text), '')) as digest from "${table}" t`,
      )
      .join(' union all ');
  }
  const { rows } = await snapshotClient.query<{ name: string; digest: string }>(digestQuery);
  return Object.fromEntries(rows.map((row) => [row.name, row.digest]));
}

const junkText = fc.oneof(
  fc.string(),
  fc.string({ unit: 'grapheme', maxLength: 40 }),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.constantFrom(
    '\u0000',
    'a\u0000b',
    '%00',
    '',
    ' ',
    '-1',
    '0',
    '1e309',
    'NaN',
    '99999999999999999999999999',
    '../../../etc/passwd',
    "'; drop table team; --",
    '\ud800',
    '\u202e\u0301',
    '00000000-0000-0000-0000-000000000000',
    '/subscriptions/00000000-0000-0000-0000-000000000000/resourceGroups/rg',
    '{"$gt":""}',
  ),
  fc.constant('x'.repeat(100_000)),
);
const junkValue: fc.Arbitrary<unknown> = fc.oneof(
  junkText,
  fc.integer(),
  fc.constantFrom(-1, 0, 1e308, -1e308, Number.MAX_SAFE_INTEGER + 2, 0.5),
  fc.boolean(),
  fc.constant(null),
  fc.array(junkText, { maxLength: 3 }),
  fc.dictionary(fc.string({ maxLength: 8 }), junkText, { maxKeys: 3 }),
);

function percentEncode(text: string): string {
  return [...Buffer.from(text, 'utf8')].map((byte) => `%${byte.toString(16).padStart(2, '0')}`).join('');
}

// A value the schema accepts, more or less: what a careless but honest client would send.
function plausibleValue(schema: JsonSchema): fc.Arbitrary<unknown> {
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  if (schema.enum?.length) return fc.constantFrom(...schema.enum);
  if (schema.anyOf?.length) return fc.oneof(...schema.anyOf.map(plausibleValue));
  if (type === 'integer' || type === 'number') {
    return fc.integer({ min: schema.minimum ?? -5, max: Math.min(schema.maximum ?? 100, 1_000_000) });
  }
  if (type === 'boolean') return fc.boolean();
  if (schema.format === 'email') return fc.constantFrom(owner.email, 'someone@example.com');
  return fc.oneof(fc.constantFrom(...knownIds), fc.string({ minLength: 1, maxLength: 12 }));
}

function valueFor(schema: JsonSchema): fc.Arbitrary<unknown> {
  return fc.oneof(plausibleValue(schema), junkValue);
}

interface JunkRequest {
  url: string;
  body: string | undefined;
}

function junkRequest(operation: Operation): fc.Arbitrary<JunkRequest> {
  // Path values go out percent-encoded byte by byte (a lone surrogate as UTF-8's replacement, as a
  // browser would send it), or as raw escapes no decoder accepts.
  const pathValues = fc.tuple(
    ...operation.pathParameters.map(() =>
      fc.oneof(junkText.map(percentEncode), fc.constantFrom('%', '%zz', '%ff%fe', '%c0%80', '..%2f..%2f')),
    ),
  );
  const queryValues = fc
    .record(
      Object.fromEntries(
        [...Object.entries(operation.queryParameters), ['extra', {}] as const].map(([name, schema]) => [
          name,
          fc.oneof(plausibleValue(schema), junkText).map(String),
        ]),
      ),
      { requiredKeys: [] },
    )
    .map((record) => Object.entries(record) as [string, string][]);
  const body =
    operation.bodyFields === undefined
      ? fc.constantFrom(undefined, '')
      : fc.oneof(
          fc
            .record(
              Object.fromEntries(
                Object.entries(operation.bodyFields).map(([field, schema]) => [field, valueFor(schema)]),
              ),
              { requiredKeys: [] },
            )
            .map((record) => JSON.stringify({ ...record })),
          fc.dictionary(fc.string({ maxLength: 12 }), junkValue).map((record) => JSON.stringify(record)),
          junkValue.map((value) => JSON.stringify(value) ?? 'null'),
          fc.constantFrom('', '{', 'null', '[]', '"text"', '{"__proto__":{"isAdmin":true}}'),
        );
  return fc.record({ pathValues, queryValues, body }).map(({ pathValues, queryValues, body }) => {
    let url = operation.path;
    operation.pathParameters.forEach((name, index) => {
      url = url.replace(`{${name}}`, pathValues[index] ?? '');
    });
    const query = new URLSearchParams(queryValues).toString();
    return { url: query ? `${url}?${query}` : url, body };
  });
}

// A fresh token per run: a run may log the session out, which is its right.
async function mintToken(): Promise<string> {
  return context.container.auth.issueToken(owner.userId, owner.email, 'Ada');
}

describe('every operation in /api/docs with junk input and a valid session', () => {
  it('lists the signed-in operations it will fuzz', () => {
    const paths = operations.map((operation) => `${operation.method} ${operation.path}`);
    expect(paths).toEqual(
      expect.arrayContaining(['GET /api/v1/resource/find', 'GET /api/v1/metric', 'GET /api/v1/log']),
    );
  });

  it('answers below 500 every time, and a 4xx changes nothing', async () => {
    const failures: string[] = [];
    for (const operation of operations) {
      await fc.assert(
        fc.asyncProperty(junkRequest(operation), async ({ url, body }) => {
          const before = await readDatabaseDigest();
          const response = await context.app.inject({
            method: operation.method as 'GET',
            url,
            headers: { authorization: `Bearer ${await mintToken()}`, 'content-type': 'application/json' },
            ...(body === undefined ? {} : { payload: body }),
          });
          const label = `${operation.method} ${url.slice(0, 200)} body=${(body ?? '').slice(0, 200)}`;
          if (response.statusCode >= 500) failures.push(`${response.statusCode} ${label}`);
          if (response.statusCode >= 400 && response.statusCode < 500) {
            const after = await readDatabaseDigest();
            const changed = Object.keys(after).filter((table) => after[table] !== before[table]);
            if (changed.length > 0)
              failures.push(`${response.statusCode} changed ${changed.join(', ')}: ${label}`);
          }
        }),
        { numRuns: runsPerOperation, seed: 20261123 },
      );
    }
    expect(failures).toEqual([]);
  }, 600_000);
});
