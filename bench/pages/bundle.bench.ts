// JavaScript a browser fetches before the first paint, gzip, against SPEC's budgets (first-load.ts
// measures it; first-load.test.ts holds the same budgets in `npm test`). Builds the web app first
// when web/dist has no manifest.
import { ensureWebDist, formatFirstLoad, measureFirstLoad } from './first-load';

ensureWebDist();
const figures = measureFirstLoad();
console.log(formatFirstLoad('publicArea', figures.publicArea));
console.log(formatFirstLoad('signedInShell', figures.signedInShell));
process.exitCode = figures.publicArea.isMet && figures.signedInShell.isMet ? 0 : 1;
