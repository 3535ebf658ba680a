import { presentSystemHealth } from '../presenters/system.ts';
import { getSettings } from '../domain/restaurants/restaurants.ts';
import type { Settings } from '../model/settings.ts';
import type { ComandaServer } from '../server.ts';
import { setupNeeded } from '../domain/staff/setup.ts';
import { systemHealth } from '../operator/health.ts';

/** What a supervising desktop shell is told about the server it runs (over the IPC channel). */
export interface StatusReport {
  type: 'status';
  restaurant: { id: string; slug: string; name: string } | null;
  health: ReturnType<typeof presentSystemHealth> | null;
  /** the opening hours, so the shell installs updates only outside service */
  hours: Pick<Settings, 'timezone' | 'opening_hours' | 'closed_dates'> | null;
  /** no owner can sign in yet: the shell keeps showing the setup code */
  setup_needed: boolean;
}

export async function statusReport(server: ComandaServer): Promise<StatusReport> {
  const { services } = server;
  const r = await services.db.selectFrom('restaurants').select(['id', 'slug', 'name']).orderBy('created').limit(1).executeTakeFirst();
  const setup_needed = await setupNeeded(services.db);
  if (!r) return { type: 'status', restaurant: null, health: null, hours: null, setup_needed };
  const s = await getSettings(services.db, r.id);
  return {
    type: 'status',
    restaurant: r,
    health: presentSystemHealth(await systemHealth(services, r.id), services.clock.now()),
    hours: { timezone: s.timezone, opening_hours: s.opening_hours, closed_dates: s.closed_dates },
    setup_needed,
  };
}

/** Sends a report now and then every `everyMs` until the returned stop(). */
export function startStatusReports(server: ComandaServer, send: (r: StatusReport) => void, everyMs = 30_000): () => void {
  let stopped = false;
  const once = () =>
    statusReport(server).then(
      (r) => !stopped && send(r),
      (err) => server.services.logger.warn({ err }, 'status report failed'),
    );
  void once();
  const timer = setInterval(once, everyMs);
  timer.unref();
  return () => {
    stopped = true;
    clearInterval(timer);
  };
}
