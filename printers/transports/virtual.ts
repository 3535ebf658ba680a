import type { StatusReading } from '../status.ts';
import { SendCancelled } from '../send-error.ts';
import type { SendOptions } from '../send-options.ts';

/**
 * A virtual printer prints nowhere: the job is done once the dispatcher still holds it, and
 * stays in the queue's history, where its preview shows the paper it would have been. For a
 * venue trying the hub before its printers arrive, or checking a receipt's layout.
 */
export async function sendVirtual(opts: SendOptions): Promise<StatusReading> {
  // the same claim check as a real send before its first byte: a job taken over meanwhile is not "printed" twice
  if (opts.beforeWrite && !(await opts.beforeWrite().catch(() => false))) throw new SendCancelled();
  return { state: 'online', detail: null };
}
