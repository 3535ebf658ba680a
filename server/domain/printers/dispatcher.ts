import { randomUUID } from 'node:crypto';
import { drawerPulse, renderCommands } from '../../../printers/encoder.ts';
import type { StatusReading } from '../../../printers/status.ts';
import { DEFAULT_SEND_OPTIONS, PrintError, send, SendCancelled, type SendOptions, type TransportConfig } from '../../../printers/transport.ts';
import type { Services } from '../../services.ts';
import { withMarks } from './documents.ts';
import { printerTransport } from '../../model/printers.ts';
import type { PrintJobRow } from '../../db/tables/print-jobs.table.ts';
import type { PrinterRow } from '../../db/tables/printers.table.ts';
import type { PrinterStatusRow } from '../../db/tables/printer-status.table.ts';

export interface DispatcherOptions {
  /** failed attempts on a printer before its jobs move to its backup */
  failuresBeforeBackup: number;
  /** retry delay: base × 2^(attempt−1) seconds, capped */
  baseBackoffSeconds: number;
  maxBackoffSeconds: number;
  /** a claim older than this belongs to a dispatcher that died; its job is taken over */
  leaseSeconds: number;
  /** a job not printed after this long fails as expired: a ticket hours late only confuses */
  maxAgeSeconds: number;
  batchSize: number;
  sendOptions: SendOptions;
  /** how bytes reach a printer; tests and the bench may replace it */
  send: (transport: TransportConfig, bytes: Buffer, opts: SendOptions) => Promise<StatusReading>;
}

export const DEFAULT_DISPATCHER_OPTIONS: DispatcherOptions = {
  failuresBeforeBackup: 3,
  baseBackoffSeconds: 2,
  maxBackoffSeconds: 60,
  leaseSeconds: 120,
  maxAgeSeconds: 4 * 3600,
  batchSize: 50,
  sendOptions: DEFAULT_SEND_OPTIONS,
  send,
};

export const POSSIBLE_DUPLICATE = 'POSSIBLE DUPLICATE';

/**
 * Works off the print queue. Woken after every commit (Transactor.onCommit) and by the
 * periodic sweep; reads what is due from the database, so a lost wake-up loses nothing.
 *
 * Delivery is at-least-once: a job is marked printed only after the printer took every
 * byte and the connection closed cleanly. A crash between the last byte and that mark
 * sends the ticket again (marked POSSIBLE DUPLICATE) — a duplicate ticket costs a glance,
 * a lost one costs a dish. Failures before the first document byte (refused connection,
 * offline or paper-out status) are retried without that risk.
 */
/** What the dispatcher just changed: a job's state, or what a printer answered. */
export type PrintChange = { kind: 'job'; job: PrintJobRow } | { kind: 'status'; status: PrinterStatusRow };

export class PrintDispatcher {
  readonly owner = `disp_${randomUUID()}`;
  /** hear every job state and printer status this dispatcher writes (the live printers page) */
  readonly changes = new Set<(change: PrintChange) => void>();
  /** tunable while running (tests stretch timeouts; an operator could too) */
  opts: DispatcherOptions;
  private loop: Promise<void> | null = null;
  /** printer id → the worker sending its jobs; a slow or dead printer holds up only itself */
  private busy = new Map<string, Promise<void>>();
  private again = false;
  private running = false;
  private unsubscribe: (() => void) | null = null;

  constructor(
    private readonly services: Services,
    opts: Partial<DispatcherOptions> = {},
  ) {
    this.opts = { ...DEFAULT_DISPATCHER_OPTIONS, ...opts };
  }

  start(): void {
    this.running = true;
    this.unsubscribe ??= this.services.tx.onCommit(() => this.kick());
    this.kick();
  }

  async stop(): Promise<void> {
    this.running = false;
    this.unsubscribe?.();
    this.unsubscribe = null;
    await this.idle();
  }

  /** Asks for a pass over the queue; cheap and safe to call any time. */
  kick(): void {
    if (!this.running) return;
    if (this.loop) {
      this.again = true;
      return;
    }
    this.loop = this.run().finally(() => {
      this.loop = null;
      // a kick that came after the last pass looked, but before the loop ended
      if (this.again) {
        this.again = false;
        this.kick();
      }
    });
  }

  /** Resolves when no pass and no printer worker is running any more. */
  async idle(): Promise<void> {
    while (this.loop || this.busy.size > 0) await Promise.all([this.loop, ...this.busy.values()]);
  }

  /** kick + idle: what the sweep job and tests use. */
  async drain(): Promise<void> {
    this.kick();
    await this.idle();
  }

  private async run(): Promise<void> {
    while (this.running) {
      this.again = false;
      let handled = 0;
      try {
        handled = await this.pass();
      } catch (err) {
        this.services.logger.error({ err }, 'print queue pass failed');
        return;
      }
      if (handled === 0 && !this.again) return;
    }
  }

  private nowSeconds(): number {
    return Math.floor(this.services.clock.now() / 1000);
  }

  /**
   * Claims every due job (leased) of the printers not busy now and hands each printer's jobs,
   * in order, to a worker of its own. A worker that ends asks for another pass.
   */
  private async pass(): Promise<number> {
    const { db } = this.services;
    const now = this.nowSeconds();
    let query = db.selectFrom('print_jobs as j').select(['j.id', 'j.printer_id']);
    if (this.busy.size > 0) query = query.where('j.printer_id', 'not in', [...this.busy.keys()]);
    const due = await query
      .where((eb) =>
        eb.or([
          eb.and([eb('j.state', '=', 'queued'), eb('j.next_attempt_at', '<=', now)]),
          eb.and([eb('j.state', '=', 'printing'), eb('j.lease_until', '<', now)]),
        ]),
      )
      // Backoff is per job, so a newer ticket can be due while an older one on the same printer
      // still waits out its retry; sending it would put tickets on the pass out of order. A job
      // is only due once nothing older on its printer is still waiting or held by a live lease.
      .where((eb) =>
        eb.not(
          eb.exists(
            eb
              .selectFrom('print_jobs as h')
              .select('h.id')
              .whereRef('h.printer_id', '=', 'j.printer_id')
              .where((o) =>
                o.or([
                  o('h.created', '<', o.ref('j.created')),
                  o.and([o('h.created', '=', o.ref('j.created')), o('h.id', '<', o.ref('j.id'))]),
                ]),
              )
              .where((o) =>
                o.or([
                  o.and([o('h.state', '=', 'queued'), o('h.next_attempt_at', '>', now)]),
                  o.and([o('h.state', '=', 'printing'), o('h.lease_until', '>=', now)]),
                ]),
              ),
          ),
        ),
      )
      .orderBy('j.created')
      .orderBy('j.id')
      .limit(this.opts.batchSize)
      .execute();
    const claimed: PrintJobRow[] = [];
    // a job another dispatcher took between the read and the claim: what follows it on that
    // printer must not overtake it, so it waits for the next pass
    const lost = new Set<string>();
    for (const { id, printer_id } of due) {
      if (lost.has(printer_id)) continue;
      const job = await this.claim(id, now);
      if (job) claimed.push(job);
      else lost.add(printer_id);
    }
    const byPrinter = new Map<string, PrintJobRow[]>();
    for (const j of claimed) byPrinter.set(j.printer_id, [...(byPrinter.get(j.printer_id) ?? []), j]);
    for (const [printerId, jobs] of byPrinter) {
      const worker = this.sendAll(jobs)
        .catch((err) => this.services.logger.error({ err, printer: printerId }, 'print worker failed; its leases will expire'))
        .finally(() => {
        this.busy.delete(printerId);
        this.kick();
      });
      this.busy.set(printerId, worker);
    }
    return claimed.length;
  }

  private tell(change: PrintChange): void {
    for (const listener of this.changes) {
      try {
        listener(change);
      } catch (err) {
        this.services.logger.error({ err }, 'a print change listener failed');
      }
    }
  }

  private async claim(id: string, now: number): Promise<PrintJobRow | undefined> {
    const job = await this.services.db
      .updateTable('print_jobs')
      .set({ state: 'printing', lease_owner: this.owner, lease_until: now + this.opts.leaseSeconds, updated: now })
      .where('id', '=', id)
      .where((eb) =>
        eb.or([
          eb.and([eb('state', '=', 'queued'), eb('next_attempt_at', '<=', now)]),
          eb.and([eb('state', '=', 'printing'), eb('lease_until', '<', now)]),
        ]),
      )
      .returningAll()
      .executeTakeFirst();
    if (job && job.write_started_at !== null) {
      // The last holder died after it began writing: the ticket may already be on paper.
      this.services.logger.warn({ job: job.id }, 'print job taken over after an interrupted send');
      return this.update(job, { marks: addMark(job.marks, POSSIBLE_DUPLICATE), write_started_at: null });
    }
    if (job) this.tell({ kind: 'job', job });
    return job;
  }

  /** Updates a job this dispatcher holds; undefined when the claim was lost meanwhile. */
  private async update(job: PrintJobRow, patch: Partial<PrintJobRow>): Promise<PrintJobRow | undefined> {
    const saved = await this.services.db
      .updateTable('print_jobs')
      .set({ ...patch, updated: this.nowSeconds() })
      .where('id', '=', job.id)
      .where('lease_owner', '=', this.owner)
      .where('state', '=', 'printing')
      .returningAll()
      .executeTakeFirst();
    if (saved) this.tell({ kind: 'job', job: saved });
    return saved;
  }

  private async sendAll(jobs: PrintJobRow[]): Promise<void> {
    const printer = await this.services.db
      .selectFrom('printers')
      .selectAll()
      .where('restaurant_id', '=', jobs[0].restaurant_id)
      .where('id', '=', jobs[0].printer_id)
      .executeTakeFirst();
    // Once a printer failed in this pass its other jobs fail the same way, without another
    // connection attempt each; they keep their order for the next pass.
    let blocked: PrintError | null = null;
    // The retry time of the first job that stays queued here. The jobs behind it are held until
    // then anyway (see pass), so they take that time rather than a shorter backoff of their own
    // that would only show a next_attempt_at that never happens.
    let holdUntil: number | null = null;
    let released = false;
    for (const job of jobs) {
      try {
        if (job.created < this.nowSeconds() - this.opts.maxAgeSeconds) {
          await this.update(job, { state: 'failed', last_error: 'expired: not printed in time', lease_owner: null, lease_until: null });
          continue;
        }
        if (!printer) {
          await this.update(job, { state: 'failed', last_error: 'printer deleted', lease_owner: null, lease_until: null });
          continue;
        }
        if (!blocked && !printer.is_active) blocked = new PrintError('offline', 'printer is disabled', false);
        if (blocked) {
          const row = await this.failed(job, printer, blocked, holdUntil);
          holdUntil ??= stayedUntil(row, printer);
          continue;
        }
        try {
          const reading = await this.sendOne(job, printer);
          await this.update(job, {
            state: 'printed',
            printed_at: this.nowSeconds(),
            attempts: job.attempts + 1,
            last_error: null,
            lease_owner: null,
            lease_until: null,
            write_started_at: null,
          });
          await this.recordStatus(printer, reading.state, reading.detail);
          if (!released) {
            released = true;
            await this.releaseWaiting(printer.id);
          }
        } catch (err) {
          const e = err instanceof PrintError ? err : new PrintError('error', (err as Error).message, false);
          // a claim lost before writing is not the printer's fault
          if (e instanceof SendCancelled) continue;
          // the jobs after it were never sent: they share the failure, not its written bytes
          blocked = new PrintError(e.state, e.message, false);
          const row = await this.failed(job, printer, e, holdUntil);
          holdUntil ??= stayedUntil(row, printer);
          await this.recordStatus(printer, e.state, e.message);
        }
      } catch (err) {
        this.services.logger.error({ err, job: job.id }, 'print job bookkeeping failed; the lease will expire');
      }
    }
  }

  private async sendOne(job: PrintJobRow, printer: PrinterRow): Promise<StatusReading> {
    const bytes =
      job.kind === 'drawer_kick'
        ? drawerPulse(printer.language)
        : renderCommands(withMarks(job.document, JSON.parse(job.marks) as string[]), { language: printer.language, paperWidth: printer.paper_width });
    const transport = printerTransport(printer);
    // a virtual printer is never handed to a replaced `send` (a test's or the bench's): nothing leaves the hub
    const deliver = transport.type === 'virtual' ? send : this.opts.send;
    return deliver(transport, bytes, {
      ...this.opts.sendOptions,
      // StarPRNT has no DLE EOT; those printers are judged by the connection alone.
      queryStatus: this.opts.sendOptions.queryStatus && printer.language === 'escpos',
      beforeWrite: async () => Boolean(await this.update(job, { write_started_at: this.nowSeconds() })),
    });
  }

  /**
   * The printer just took a job, so a backoff its waiting jobs earned while it was down means
   * nothing any more. Without this, one with a later retry than the job that printed (this
   * printer's own failing ticket, say, behind an older job moved here from a failed printer)
   * would sit idle while the printer works; now they follow at once, in order (see pass).
   */
  private async releaseWaiting(printerId: string): Promise<void> {
    const now = this.nowSeconds();
    await this.services.db
      .updateTable('print_jobs')
      .set({ next_attempt_at: now, updated: now })
      .where('printer_id', '=', printerId)
      .where('state', '=', 'queued')
      .where('next_attempt_at', '>', now)
      .execute();
  }

  /**
   * A failed attempt: back off, or after enough failures move the job to the backup printer.
   * `holdUntil`, when set, is the retry time of an older job of this printer that failed just
   * before; this job cannot go out before it, so it waits for the same moment.
   */
  private async failed(job: PrintJobRow, printer: PrinterRow, err: PrintError, holdUntil: number | null): Promise<PrintJobRow | undefined> {
    const attempts = job.attempts + 1;
    const now = this.nowSeconds();
    const marks = err.written ? addMark(job.marks, POSSIBLE_DUPLICATE) : job.marks;
    const release = { lease_owner: null, lease_until: null, write_started_at: null, state: 'queued' as const, attempts, last_error: `${err.state}: ${err.message}` };
    const onOriginal = job.printer_id === job.original_printer_id;
    if (onOriginal && attempts >= this.opts.failuresBeforeBackup && printer.backup_printer_id) {
      const backup = await this.services.db
        .selectFrom('printers')
        .selectAll()
        .where('restaurant_id', '=', job.restaurant_id)
        .where('id', '=', printer.backup_printer_id)
        .where('is_active', '=', 1)
        .executeTakeFirst();
      if (backup) {
        const moved = await this.update(job, { ...release, printer_id: backup.id, marks: addMark(marks, `BACKUP FROM ${printer.name}`), next_attempt_at: now });
        this.services.logger.warn({ job: job.id, from: printer.id, to: backup.id }, 'print job moved to backup printer');
        return moved;
      }
    }
    const delay = Math.min(this.opts.maxBackoffSeconds, this.opts.baseBackoffSeconds * 2 ** Math.min(attempts - 1, 16));
    return this.update(job, { ...release, marks, next_attempt_at: holdUntil ?? now + delay });
  }

  private async recordStatus(printer: PrinterRow, state: StatusReading['state'], detail: string | null): Promise<void> {
    const row = { printer_id: printer.id, restaurant_id: printer.restaurant_id, state, detail, checked_at: this.nowSeconds() };
    await this.services.db
      .insertInto('printer_status')
      .values(row)
      .onConflict((oc) => oc.column('printer_id').doUpdateSet({ state, detail, checked_at: row.checked_at }))
      .execute();
    this.tell({ kind: 'status', status: row });
  }
}

/** The retry time of a job that stays queued on `printer`; null when it moved or was lost. */
function stayedUntil(job: PrintJobRow | undefined, printer: PrinterRow): number | null {
  return job && job.state === 'queued' && job.printer_id === printer.id ? job.next_attempt_at : null;
}

function addMark(marksJson: string, mark: string): string {
  const marks = JSON.parse(marksJson) as string[];
  return JSON.stringify(marks.includes(mark) ? marks : [...marks, mark]);
}
