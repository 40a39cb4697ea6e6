// A test's fetch stub answers the calls it expects and hands every other one here. The call is
// refused (a rejected fetch, as a network failure would be) and kept, and the test fails after it
// (setup-tests.ts) naming the calls: a screen calling what its test never meant can no longer pass
// by reading a 404 as an empty or failed list.
const unexpectedCalls: string[] = [];

export function refuseUnexpectedCall(url: string | URL | Request, init?: RequestInit): Promise<Response> {
  const call = `${init?.method ?? 'GET'} ${String(url)}`;
  unexpectedCalls.push(call);
  return Promise.reject(new Error(`Unexpected fetch in a test: ${call}`));
}

/** The unexpected calls since the last time, which are forgotten. */
export function takeUnexpectedCalls(): string[] {
  return unexpectedCalls.splice(0, unexpectedCalls.length);
}
