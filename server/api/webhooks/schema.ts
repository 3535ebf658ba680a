import { z } from 'zod';
import { f } from '../../model/fields.ts';
import { listParams } from '../../http/query.ts';
import { EVENT_PATTERNS, unknownEventMessage } from '../../model/events.ts';

/**
 * An event type (model/events.ts), `*` for every type, or a prefix such as `order.*`.
 * The pipe keeps the message that names the known types; the document shows the enum.
 */
const eventType = z
  .string()
  .max(100)
  .pipe(z.enum(EVENT_PATTERNS, { error: (issue) => unknownEventMessage(String(issue.input)) }));

const fields = {
  url: z.string().trim().min(1).max(2000),
  enabled_events: z.array(eventType).min(1, 'must name at least one event type, a prefix such as order.*, or *').max(50),
  description: f.text(500).nullable(),
  status: z.enum(['enabled', 'disabled']),
  /** which side of a linked restaurant sends it: `cloud` (default) or `hub` (a receiver on the venue's network) */
  sent_by: z.enum(['cloud', 'hub']),
};

export const CreateEndpoint = z.object(fields).partial().required({ url: true, enabled_events: true });
export const UpdateEndpoint = z.object(fields).partial();
export const RollSecret = z.object({
  /** seconds the old secret keeps signing too; 0 drops it at once */
  expires_in: f.int(0, 7 * 86_400).optional(),
});
export { eventType };
export const ListEndpoints = z.object({ ...listParams() });
