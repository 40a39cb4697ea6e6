// `npm run lint:engines`: every package the lock file installs must run on the oldest Node the
// README promises. That version is read from one place, the root package.json's engines.node
// (">=20.19" → 20.19.0); a dependency whose own engines.node leaves it out fails the lint, by name.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import semver from 'semver';
import { root } from './ensure-dependencies.mjs';

const readJson = (file) => JSON.parse(readFileSync(path.join(root, file), 'utf8'));

const promised = readJson('package.json').engines.node;
const oldestNode = semver.minVersion(promised).version;
const excluding = Object.entries(readJson('package-lock.json').packages)
  .filter(([, entry]) => entry.engines?.node && !semver.satisfies(oldestNode, entry.engines.node))
  .map(
    ([location, entry]) =>
      `  ${location || '(root)'} ${entry.version ?? ''} needs node ${entry.engines.node}`,
  );

if (excluding.length > 0) {
  console.error(
    `These packages do not run on Node ${oldestNode} (package.json engines.node "${promised}"):\n` +
      `${excluding.join('\n')}\nPin a release that does, or an npm override of the one that pulls it in.`,
  );
  process.exit(1);
}
console.log(`Every package in package-lock.json runs on Node ${oldestNode}.`);
