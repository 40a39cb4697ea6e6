// The tags the pipeline gates read, case-insensitive as Azure's tag names are: environment/env =
// prod/production (its stops and deletions wait for a colleague's approval) and the opt-out tag (left
// alone). Pure: pipelines decide with them, and the executor checks Azure's tags with them at act time.
import { pipelineOptOutTag } from '@cloudtrim/contracts/pipelines';

const environmentKeys = ['environment', 'env'];

export function readTag(tags: Record<string, string>, key: string): string | undefined {
  const name = key.toLowerCase();
  const found = Object.keys(tags).find((tag) => tag.toLowerCase() === name);
  return found === undefined ? undefined : tags[found];
}

export function isProduction(tags: Record<string, string>): boolean {
  return environmentKeys.some((key) => {
    const value = readTag(tags, key)?.trim().toLowerCase();
    return value === 'prod' || value === 'production';
  });
}

export function isOptedOut(tags: Record<string, string>): boolean {
  return readTag(tags, pipelineOptOutTag) !== undefined;
}

// A tag whose change changes what the gates protect: setting it is itself destructive.
export function isProtectionTag(key: string): boolean {
  return [...environmentKeys, pipelineOptOutTag].includes(key.trim().toLowerCase());
}

// What Azure's tags now protect that the tags the change was planned from did not: a prod or opt-out
// tag added since the last inventory. Undefined when nothing was added.
export function describeProtectionAdded(
  planned: Record<string, string>,
  current: Record<string, string>,
): string | undefined {
  if (isOptedOut(current) && !isOptedOut(planned)) return `it is tagged ${pipelineOptOutTag} in Azure now`;
  if (isProduction(current) && !isProduction(planned)) return 'it is tagged as production in Azure now';
  return undefined;
}
