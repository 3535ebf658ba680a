import { describe, expect, it } from 'vitest';
import { businessDate } from '../../server/domain/orders/business-date.ts';

// businessDate keeps its last answer per zone for the rest of that UTC minute: the day must
// still turn at local midnight, in zones whose offset is not whole hours too.
describe('an order\'s business date', () => {
  const at = (iso: string) => Date.parse(iso);

  it('turns at local midnight, the minute before and the minute of it asked in turn', () => {
    expect(businessDate(at('2026-03-01T22:59:59.999Z'), 'Europe/Berlin')).toBe('2026-03-01');
    expect(businessDate(at('2026-03-01T23:00:00.000Z'), 'Europe/Berlin')).toBe('2026-03-02');
    expect(businessDate(at('2026-03-01T22:59:30.000Z'), 'Europe/Berlin')).toBe('2026-03-01');
    // +05:45: midnight falls at 18:15 UTC
    expect(businessDate(at('2026-03-01T18:14:59.000Z'), 'Asia/Kathmandu')).toBe('2026-03-01');
    expect(businessDate(at('2026-03-01T18:15:00.000Z'), 'Asia/Kathmandu')).toBe('2026-03-02');
    expect(businessDate(at('2026-03-01T18:14:00.000Z'), 'Asia/Kathmandu')).toBe('2026-03-01');
  });

  it('answers each zone for itself within one minute', () => {
    const now = at('2026-07-04T03:30:10.000Z');
    expect(businessDate(now, 'America/Los_Angeles')).toBe('2026-07-03');
    expect(businessDate(now, 'Asia/Tokyo')).toBe('2026-07-04');
    expect(businessDate(now + 1000, 'America/Los_Angeles')).toBe('2026-07-03');
  });
});
