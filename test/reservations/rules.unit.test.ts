import { describe, expect, it } from 'vitest';
import type { ReservationStatus } from '../../server/model/reservations.ts';
import { noShowRisk, riskParts, type RiskFactors } from '../../server/domain/reservations/no-show-risk.ts';
import { checkTransition, eventFor } from '../../server/domain/reservations/state-machine.ts';
import { isTerminal, RESERVATION_TRANSITIONS as TRANSITIONS } from '../../server/model/reservations.ts';

// A plain weekday lunch for two with full contact details, booked an hour ahead by a new guest.
const plain: RiskFactors = { noShows: 0, lateCancellations: 0, visits: 0, leadMinutes: 60, partySize: 2, weekday: 2, hour: 13, hasEmail: true, hasPhone: true };
const risk = (over: Partial<RiskFactors>) => noShowRisk({ ...plain, ...over });
const base = risk({});

describe('no-show risk', () => {
  it('starts from the base for the plainest booking', () => {
    expect(base).toBe(5);
  });
  it('adds 25 per earlier no-show, at most 50', () => {
    expect([1, 2, 3].map((n) => risk({ noShows: n }) - base)).toEqual([25, 50, 50]);
  });
  it('adds 10 per late cancellation, at most 20', () => {
    expect([1, 2, 5].map((n) => risk({ lateCancellations: n }) - base)).toEqual([10, 20, 20]);
  });
  it('takes 5 off per completed visit, at most 15, never below 0', () => {
    expect(riskParts({ ...plain, visits: 2 }).visits).toBe(-10);
    expect(riskParts({ ...plain, visits: 9 }).visits).toBe(-15);
    expect(risk({ visits: 9 })).toBe(0);
  });
  it('grows with lead time', () => {
    const hours = [1, 5, 48, 24 * 10, 24 * 60];
    expect(hours.map((h) => risk({ leadMinutes: h * 60 }) - base)).toEqual([0, 3, 6, 10, 15]);
  });
  it('grows with party size', () => {
    expect([1, 2, 3, 4, 5, 7, 8, 20].map((p) => risk({ partySize: p }) - base)).toEqual([0, 0, 2, 2, 5, 5, 8, 8]);
  });
  it('adds 5 on Friday and Saturday and 5 late at night', () => {
    expect([1, 4, 5, 6, 7].map((d) => risk({ weekday: d }) - base)).toEqual([0, 0, 5, 5, 0]);
    expect([12, 20, 21, 23, 1, 6].map((h) => risk({ hour: h }) - base)).toEqual([0, 0, 5, 5, 5, 0]);
  });
  it('adds 20 without any contact detail and 5 with only one', () => {
    expect(risk({ hasEmail: false, hasPhone: false }) - base).toBe(20);
    expect(risk({ hasEmail: false }) - base).toBe(5);
    expect(risk({ hasPhone: false }) - base).toBe(5);
  });
  it('is capped at 100 and deterministic', () => {
    const worst = { noShows: 4, lateCancellations: 4, leadMinutes: 60 * 24 * 90, partySize: 12, weekday: 6, hour: 22, hasEmail: false, hasPhone: false };
    expect(risk(worst)).toBe(100);
    expect(risk(worst)).toBe(risk({ ...worst }));
  });
});

describe('reservation state table', () => {
  const at = { starts_at: 1000, date: '2026-11-02', time: '19:00' };
  const all = Object.keys(TRANSITIONS) as ReservationStatus[];

  it('follows the lifecycle without skipping', () => {
    expect(TRANSITIONS.pending).toContain('confirmed');
    expect(TRANSITIONS.confirmed).toContain('arrived');
    expect(TRANSITIONS.arrived).toContain('seated');
    expect(TRANSITIONS.seated).toEqual(['completed']);
    expect(() => checkTransition({ ...at, status: 'pending' }, 'seated', 2000)).toThrow(/pending/);
  });
  it('cancels from pending, confirmed and arrived only', () => {
    expect(all.filter((s) => TRANSITIONS[s].includes('cancelled'))).toEqual(['pending', 'confirmed', 'arrived']);
  });
  it('marks no-shows from pending and confirmed, only once the time has passed', () => {
    expect(all.filter((s) => TRANSITIONS[s].includes('no_show'))).toEqual(['pending', 'confirmed']);
    expect(() => checkTransition({ ...at, status: 'confirmed' }, 'no_show', 999)).toThrow(/once that time has passed/);
    expect(() => checkTransition({ ...at, status: 'confirmed' }, 'no_show', 1000)).not.toThrow();
  });
  it('never moves a terminal state and names the current one', () => {
    for (const s of ['completed', 'cancelled', 'no_show'] as const) {
      expect(isTerminal(s)).toBe(true);
      for (const to of all) {
        try {
          checkTransition({ ...at, status: s }, to, 5000);
          expect.unreachable();
        } catch (err: any) {
          expect(err.code).toBe('invalid_transition');
          expect(err.status).toBe(409);
          expect(err.message).toContain(s);
        }
      }
    }
  });
  it('names the event of each move', () => {
    expect(eventFor('cancelled')).toBe('reservation.cancelled');
    expect(eventFor('no_show')).toBe('reservation.no_show');
    expect(eventFor('seated')).toBe('reservation.updated');
  });
});
