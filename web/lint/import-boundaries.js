// The web workspace's import boundaries, for eslint.config.js (ARCHITECTURE.md, "Rules that keep it so"):
// - features never import each other nor the app, and shared code (components/, lib/) imports
//   neither; the list of features is read from web/src/features when lint runs, so a new feature
//   folder is covered the moment it exists;
// - no import reaches outside the web workspace: a relative path stays inside web/, and a package
//   is one web/package.json depends on (the root's dev tools too, for tests and the build's own files).
import { readdirSync, readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import path from 'node:path';

const webRoot = path.resolve(import.meta.dirname, '..');
const repoRoot = path.dirname(webRoot);
const featuresDir = path.join(webRoot, 'src/features');

export const webFeatures = readdirSync(featuresDir, { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name)
  .sort();

function readDependencyNames(packageJsonPath) {
  const manifest = JSON.parse(readFileSync(packageJsonPath, 'utf8'));
  return new Set([
    ...Object.keys(manifest.dependencies ?? {}),
    ...Object.keys(manifest.devDependencies ?? {}),
  ]);
}

const webDependencies = readDependencyNames(path.join(webRoot, 'package.json'));
const rootDevTools = readDependencyNames(path.join(repoRoot, 'package.json'));
const nodeBuiltins = new Set(builtinModules);

function getPackageName(specifier) {
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
}

// Test files, the tests' own helpers (src/testing) and the build's own Node files may use the root's
// tools (vitest) and Node's modules.
function isToolingFile(filename) {
  return (
    /\.test\.tsx?$/.test(filename) ||
    filename.startsWith(path.join(webRoot, 'src', 'testing') + path.sep) ||
    !filename.startsWith(path.join(webRoot, 'src') + path.sep)
  );
}

function findOutsideReach(filename, specifier) {
  if (specifier.startsWith('.')) {
    const target = path.resolve(path.dirname(filename), specifier.replace(/\?.*$/, ''));
    return target.startsWith(webRoot + path.sep) ? null : `${specifier} reaches outside the web workspace.`;
  }
  if (specifier.startsWith('/')) return `${specifier} is an absolute path outside the web workspace.`;
  const packageName = getPackageName(specifier);
  if (webDependencies.has(packageName)) return null;
  if (isToolingFile(filename)) {
    if (rootDevTools.has(packageName) || specifier.startsWith('node:') || nodeBuiltins.has(packageName))
      return null;
  }
  return `${packageName} is not a dependency of the web workspace (web/package.json).`;
}

const noOutsideImports = {
  meta: {
    type: 'problem',
    docs: { description: 'Web imports stay inside the web workspace or come from its own dependencies.' },
    schema: [],
  },
  create(context) {
    const filename = context.filename;
    function check(node) {
      const source = node.source;
      if (!source || source.type !== 'Literal' || typeof source.value !== 'string') return;
      const problem = findOutsideReach(filename, source.value);
      if (problem) context.report({ node: source, message: problem });
    }
    return {
      ImportDeclaration: check,
      ExportNamedDeclaration: check,
      ExportAllDeclaration: check,
      ImportExpression: check,
    };
  },
};

export const webBoundariesPlugin = { rules: { 'no-outside-imports': noOutsideImports } };

const featureAlternation = webFeatures.join('|');

/** One config block per feature: it may import only itself, never another feature nor the app. */
export const featureBoundaries = webFeatures.map((feature) => ({
  files: [`web/src/features/${feature}/**/*.{ts,tsx}`],
  rules: {
    'no-restricted-imports': [
      'error',
      {
        patterns: [
          {
            regex: `^(\\.\\./)+(features/)?(?!${feature}/)(${featureAlternation})/`,
            message:
              'Web features never import each other; compose them in src/app, or lift shared code to src/components or src/lib.',
          },
          { regex: '^(\\.\\./)+app/', message: 'Features do not import the app layer.' },
        ],
      },
    ],
  },
}));
