/**
 * The no-show risk score (0–100). Deterministic and additive so staff can see why a number
 * is what it is; each part is documented in docs/integrators/reservations.md and unit-tested on its own.
 */
export interface RiskFactors {
  /** the guest's earlier reservations at this restaurant marked no_show */
  noShows: number;
  /** earlier reservations cancelled less than 24 hours before their time */
  lateCancellations: number;
  /** earlier reservations completed */
  visits: number;
  /** minutes from booking to the reserved time */
  leadMinutes: number;
  partySize: number;
  /** 1 = Monday … 7 = Sunday, in the restaurant's timezone */
  weekday: number;
  /** hour of the reserved time, restaurant timezone */
  hour: number;
  hasEmail: boolean;
  hasPhone: boolean;
}

export const RISK_BASE = 5;

export function riskParts(f: RiskFactors) {
  const lead = f.leadMinutes / 60;
  return {
    base: RISK_BASE,
    no_shows: Math.min(50, 25 * f.noShows),
    late_cancellations: Math.min(20, 10 * f.lateCancellations),
    visits: -Math.min(15, 5 * f.visits),
    lead_time: lead < 2 ? 0 : lead < 24 ? 3 : lead < 24 * 7 ? 6 : lead < 24 * 30 ? 10 : 15,
    party_size: f.partySize <= 2 ? 0 : f.partySize <= 4 ? 2 : f.partySize <= 7 ? 5 : 8,
    weekend: f.weekday === 5 || f.weekday === 6 ? 5 : 0,
    late_hour: f.hour >= 21 || f.hour < 6 ? 5 : 0,
    contact: !f.hasEmail && !f.hasPhone ? 20 : f.hasEmail && f.hasPhone ? 0 : 5,
  };
}

export function noShowRisk(f: RiskFactors): number {
  const sum = Object.values(riskParts(f)).reduce((a, b) => a + b, 0);
  return Math.max(0, Math.min(100, Math.round(sum)));
}
