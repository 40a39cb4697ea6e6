import { describe, expect, it } from 'vitest';
import { BoundedMap } from './bounded-map';

describe('BoundedMap', () => {
  it('drops the least recently remembered past its bound, and moves what is remembered again last', () => {
    const map = new BoundedMap<string, number>(2);
    map.remember('a', 1);
    map.remember('b', 2);
    map.remember('a', 3);
    map.remember('c', 4);
    expect([...map.entries()]).toEqual([
      ['a', 3],
      ['c', 4],
    ]);
  });
});
