import { useState } from 'preact/hooks';
import { money, moneyInput, parseMoney } from '../lib/format.ts';
import { t } from '../lib/i18n.ts';
import { home } from '../lib/homes.ts';
import { live } from '../lib/live.ts';
import { dismissNotice, dismissRefused, notices, queued, submit, waitingFor } from '../lib/outbox.ts';
import type { QueueEntry, QueuedLine } from '../lib/outbox-queue.ts';
import { Button, Dialog, Field } from '../ui/kit.tsx';

/**
 * What the service page shows of its outbox (lib/outbox.ts) while neither the hub nor the
 * cloud answers: how many writes wait, each table's waiting lines (marked, without a price:
 * only the server prices a line), the cash taken for what the server last said was due, and
 * plainly what needs a home.
 */

/** Neither home answers: the live line is down (it follows whichever home the device is on). */
export const offline = () => live.status.value === 'offline';

/** A round of drafts as the API takes it, with what the tablet shows while it waits. */
export interface DraftLike {
  item: { id: string; name: string };
  quantity: number;
  modifiers: { group: string; name: string }[];
  notes: string;
  seat: number;
  course: number;
}
const lineOf = (d: DraftLike): QueuedLine => ({
  menu_item: d.item.id,
  quantity: d.quantity,
  modifiers: d.modifiers,
  notes: d.notes || null,
  seat: d.seat,
  course: d.course,
  label: `${d.quantity}× ${d.item.name}${d.modifiers.length ? ` (${d.modifiers.map((m) => m.name).join(', ')})` : ''}`,
});

/**
 * Sends a round to the table's check (or opens it, placed, with the round): now, or through
 * the outbox. 'queued' when it waits on the tablet.
 */
export async function sendRound<O>(table: { id: string; number: number }, order: string | null, round: DraftLike[], hold: Set<number>, covers: number | null): Promise<O | 'queued'> {
  const hold_courses = [...hold].filter((c) => round.some((d) => d.course === c));
  const answer = await submit<O>({ kind: 'round', table: table.id, tableNumber: table.number, order, lines: round.map(lineOf), hold_courses, covers });
  return answer ?? 'queued';
}

/** The held courses of a table whose Fire already waits (not offered twice). */
export const firesWaiting = (table: string) => waitingFor(table).flatMap((e) => (e.write.kind === 'fire' ? [e.write.course] : []));
/** Cash already waits for this table: what was due is being paid. */
export const cashWaiting = (table: string) => waitingFor(table).some((e) => e.write.kind === 'payment');

/** "Waiting to send (3)" in the service bar while anything waits. */
export function WaitingCount() {
  const n = queued.value.filter((e) => !e.refused).length;
  return n ? <span class="queue-count" role="status">{t('service.queue.waiting', { n })}</span> : null;
}

const what = (e: QueueEntry): string => {
  const w = e.write;
  if (w.kind === 'round') return w.lines.map((l) => l.label).join(', ');
  if (w.kind === 'fire') return t('service.fire', { n: w.course });
  return t('service.queue.cash', { amount: money(w.amount, w.currency) });
};

/** Under the bar: "offline" in words, the queue's news, and writes the server refused (until dismissed). */
export function QueueNews() {
  const refused = queued.value.filter((e) => e.refused);
  if (!offline() && !notices.value.length && !refused.length) return null;
  return (
    <div class="queue-news">
      {offline() ? <p role="status">{t('service.queue.offline')}</p> : null}
      {notices.value.map((n) => (
        <p key={n.id} role="status" class="queue-notice">
          {n.text} <Button variant="quiet" onClick={() => dismissNotice(n.id)}>{t('service.queue.dismiss')}</Button>
        </p>
      ))}
      {refused.map((e) => (
        <p key={e.seq} role="alert" class="queue-notice error-text">
          {t('service.queue.refused', { what: what(e), n: e.write.tableNumber, reason: e.refused! })}{' '}
          <Button variant="quiet" onClick={() => void dismissRefused(e.seq)}>{t('service.queue.dismiss')}</Button>
        </p>
      ))}
    </div>
  );
}

/** A table's writes waiting on the tablet: lines marked "waiting" with no price, fires, cash; and that the total leaves them out. */
export function WaitingAtTable({ table }: { table: string }) {
  const waiting = waitingFor(table);
  if (!waiting.length) return null;
  const lines = waiting.flatMap((e) => (e.write.kind === 'round' ? e.write.lines : []));
  // back on the hub, a write the cloud may have taken (its answer lost) goes only to the cloud: said plainly
  const forCloud = (e: QueueEntry) => e.reached === 'cloud' && home.value === 'hub';
  const mark = (e: QueueEntry) => (
    <span class="kitchen-state state-waiting" title={forCloud(e) ? t('service.queue.otherHome') : undefined}>
      {t(forCloud(e) ? 'service.queue.markOther' : 'service.queue.mark')}
    </span>
  );
  return (
    <section class="queue-table" aria-label={t('service.queue.title')}>
      <h3>{t('service.queue.title')}</h3>
      <ul class="check-lines">
        {waiting.map((e) =>
          e.write.kind === 'round' ? (
            e.write.lines.map((l, i) => (
              <li key={`${e.seq}-${i}`} data-waiting={e.seq}>
                <span>
                  <span class="line-name">{l.label}</span>
                  <small class="line-meta">S{l.seat} · C{l.course}</small>
                </span>
                {mark(e)}
              </li>
            ))
          ) : (
            <li key={e.seq} data-waiting={e.seq}>
              <span class="line-name">{what(e)}</span>
              {mark(e)}
            </li>
          ),
        )}
      </ul>
      {lines.length ? <p class="hint">{t('service.queue.notInTotal', { n: lines.length })}</p> : null}
      {waiting.some(forCloud) ? <p class="hint">{t('service.queue.otherHome')}</p> : null}
    </section>
  );
}

/** What waits for a home, said instead of a button that would spin. */
export const NeedsHome = () => (offline() ? <p class="hint needs-home">{t('service.queue.needsHome')}</p> : null);

/**
 * Cash while offline: for what the server last said was due (never a sum made here), with the
 * change for what was handed over. Card needs the terminal's answer and a home: it says so.
 */
export function OfflineCash({ order, table, open, onClose }: { order: { id: string; amount_due: number; currency: string }; table: { id: string; number: number }; open: boolean; onClose: () => void }) {
  const [tendered, setTendered] = useState('');
  const [error, setError] = useState<string | null>(null);
  const cur = order.currency.toUpperCase();
  const given = tendered ? parseMoney(tendered, cur) : null;
  const take = async () => {
    try {
      await submit({ kind: 'payment', table: table.id, tableNumber: table.number, order: order.id, amount: order.amount_due, tendered: given, currency: order.currency });
      setTendered('');
      onClose();
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
    }
  };
  return (
    // kit: a Dialog, not a FormDialog: a tablet's cash taken while offline (the pay pane's keys), kept mounted with the check
    <Dialog title={t('service.queue.payCash')} open={open} onClose={onClose}>
      <p class="hint">{t('service.queue.cardNeedsHome')}</p>
      <p class="pay-amount" data-testid="offline-due">{t('service.queue.cashDue', { amount: money(order.amount_due, cur) })}</p>
      <Field label={t('pay.tendered')} inputMode="decimal" value={tendered} placeholder={moneyInput(order.amount_due, cur)} onInput={(e) => setTendered((e.target as HTMLInputElement).value)} />
      {given !== null && given >= order.amount_due ? <p class="pay-change" role="status">{t('pay.change', { amount: money(given - order.amount_due, cur) })}</p> : null}
      {error ? <p class="error-text" role="alert">{error}</p> : null}
      <div class="dialog-actions">
        <Button onClick={onClose}>{t('pay.cancel')}</Button>
        <Button variant="primary" disabled={order.amount_due <= 0 || (given !== null && given < order.amount_due)} onClick={take}>{t('service.queue.cashConfirm', { amount: money(order.amount_due, cur) })}</Button>
      </div>
    </Dialog>
  );
}
