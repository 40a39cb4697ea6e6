import { describe, expect, it } from 'vitest';
import { buildActivityFilter } from './azure-activity';

describe('buildActivityFilter', () => {
  it('asks for one resource from a time on, its quotes doubled as OData spells them', () => {
    expect(
      buildActivityFilter(
        "/subscriptions/s1/resourceGroups/rg/providers/Microsoft.Network/publicIPAddresses/pip-o'1",
        new Date('2026-09-01T00:00:00Z'),
      ),
    ).toBe(
      "eventTimestamp ge '2026-09-01T00:00:00.000Z' and resourceUri eq '/subscriptions/s1/resourceGroups/rg/providers/Microsoft.Network/publicIPAddresses/pip-o''1'",
    );
  });
});
