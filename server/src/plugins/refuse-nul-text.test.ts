import { describe, expect, it } from 'vitest';
import { findNulText } from './refuse-nul-text';

describe('findNulText', () => {
  it('names the first text holding a NUL, however deep', () => {
    expect(findNulText({ a: 'x', b: [{ c: 'y\u0000' }] })).toBe('b.0.c');
    expect(findNulText({ 'key\u0000': 1 })).toBe('key\u0000');
    expect(findNulText('\u0000')).toBe('');
  });

  it('finds nothing in clean input', () => {
    expect(findNulText({ a: 'x', b: [1, null, true, { c: 'ü' }] })).toBeUndefined();
    expect(findNulText(undefined)).toBeUndefined();
  });
});
