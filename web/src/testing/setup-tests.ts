// Every unit test file with a DOM (the web's): testing-library's findBy* and waitFor wait up to 5 s
// instead of 1 s. A lazily loaded screen renders in milliseconds on a quiet machine, but beside a
// whole test run (PostgreSQL, the emulator and Chromium on two cores) its module can take more than
// a second. Server and package tests run without a DOM and load nothing here.
//
// A fetch stub's unexpected call (testing/unexpected-fetch.ts) fails the test that made it.
if (typeof document !== 'undefined') {
  const { configure } = await import('@testing-library/react');
  configure({ asyncUtilTimeout: 5_000 });
  const { afterEach } = await import('vitest');
  const { takeUnexpectedCalls } = await import('./unexpected-fetch');
  afterEach(() => {
    const calls = takeUnexpectedCalls();
    if (calls.length > 0) throw new Error(`Calls the test's fetch stub did not expect:\n${calls.join('\n')}`);
  });
}
