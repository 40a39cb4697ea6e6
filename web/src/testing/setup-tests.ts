// Every unit test file with a DOM (the web's): testing-library's findBy* and waitFor wait up to 5 s
// instead of 1 s. A lazily loaded screen renders in milliseconds on a quiet machine, but beside a
// whole test run (PostgreSQL, the emulator and Chromium on two cores) its module can take more than
// a second. Server and package tests run without a DOM and load nothing here.
if (typeof document !== 'undefined') {
  const { configure } = await import('@testing-library/react');
  configure({ asyncUtilTimeout: 5_000 });
}
