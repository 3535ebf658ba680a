import { z } from 'zod';
import { LANGUAGES } from '../../../printers/encoder.ts';
import { f } from '../../model/fields.ts';
import { listParams, q } from '../../http/query.ts';

// A hostname (RFC 1123 labels) or an IPv4/IPv6 literal; nothing with a scheme, path or port.
const HOSTNAME = /^(?=.{1,253}$)[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*$/;
const host = z
  .string()
  .min(1)
  .max(253)
  .refine((h) => HOSTNAME.test(h) || z.ipv4().safeParse(h).success || z.ipv6().safeParse(h).success, 'must be a hostname or an IP address');

const tcp = z.object({ type: z.literal('tcp'), host, port: f.int(1, 65535).default(9100) }).strict();

/** Prints nowhere: the jobs are kept and previewed (GET /v1/print_jobs/{id}/preview). */
const virtual = z.object({ type: z.literal('virtual') }).strict();

/** Raw TCP or virtual; `usb` / `serial` join this union when their transports exist. */
const transport = z.discriminatedUnion('type', [tcp, virtual]);

const fields = {
  name: f.name(),
  transport,
  language: z.enum(LANGUAGES),
  paper_width: z.union([z.literal(58), z.literal(80)], { message: 'must be 58 or 80' }),
  stations: z.array(z.string().min(1).max(64)).max(50),
  prints_receipts: z.boolean(),
  /** a cash drawer hangs on its kick-out port: cash payments open it (only where it prints receipts) */
  cash_drawer: z.boolean(),
  backup_printer: f.id().nullable(),
  is_active: z.boolean(),
};

export const CreatePrinter = z.object(fields).partial().required({ name: true, transport: true });
export const UpdatePrinter = z.object(fields).partial();

export const ListPrinters = z.object({
  ...listParams(),
  station: z.string().min(1).max(64).optional(),
  is_active: q.bool().optional(),
});

export const JOB_STATES = ['queued', 'printing', 'printed', 'failed', 'skipped'] as const;
export const JOB_KINDS = ['kitchen_ticket', 'receipt', 'test_page', 'z_report', 'drawer_kick'] as const;

export const ListPrintJobs = z.object({
  ...listParams(),
  printer: f.id().optional(),
  order: f.id().optional(),
  state: q.enum(JOB_STATES).optional(),
  kind: q.enum(JOB_KINDS).optional(),
});

export const Reprint = z.object({ printer: f.id().optional() });
export const Receipt = z.object({ printer: f.id().optional() });
