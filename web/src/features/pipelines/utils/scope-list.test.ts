import { describe, expect, it } from 'vitest';
import { completeLastItem, readLastItem } from './scope-list';

describe('a comma-separated scope field', () => {
  it('searches the item being typed and completes it after the others, leaving out those already there', () => {
    expect(readLastItem('rg-web, rg-da')).toBe('rg-da');
    expect(
      completeLastItem('rg-web, rg-da', [
        { Value: 'rg-data', Label: 'rg-data' },
        { Value: 'rg-web', Label: 'rg-web' },
      ]),
    ).toEqual([{ value: 'rg-web, rg-data', label: 'rg-data' }]);
    expect(completeLastItem('', [{ Value: 'abc', Label: 'Production' }])).toEqual([
      { value: 'abc', label: 'Production (abc)' },
    ]);
  });
});
