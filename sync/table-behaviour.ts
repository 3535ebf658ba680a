import type { Executor } from '../server/db/records.ts';
import type { ApplyContext } from './apply-context.ts';
import type { WireChange } from './protocol.ts';
import type { Touched } from './touched.ts';

type Row = Record<string, unknown>;

/**
 * A batch as a table's slot rule sees it while apply.ts writes it: new rows and patches are
 * held back and written many at a time, so a rule that must read the table as the batch left
 * it so far flushes them first.
 */
export interface SlotBatch {
  trx: Executor;
  restaurantId: string;
  flush(): Promise<void>;
  /** rows as the batch leaves them, by `table:id` (a rule that moves another row says so here) */
  current: Map<string, Row>;
  touched: Touched;
}

/**
 * A place unique among a table's rows that two nodes hand out apart (an order's number in its
 * day, a line's position on its check): what a new row does when its place is taken here, and
 * what a patch that moves a row does. Made once per batch (it keeps the batch's state).
 */
export interface Slots {
  /** the places the batch's new rows would take that are already taken here, read once */
  load(fresh: WireChange[]): Promise<void>;
  /** a new row, before it is written: it takes its place, or makes room when the place is taken here */
  onInsert(row: Row): Promise<void>;
  /** a patch of a row this node has, before it is written */
  onPatch?(local: Row, patch: Row): Promise<void>;
  /** once the batch's rows are written */
  end?(): Promise<void>;
}

/** What a table notes of a change for the batch's followers (sync/touched.ts). */
export interface TouchRule {
  /** before the change is applied (or skipped): `local` is the row as this node has it */
  before?(t: Touched, c: WireChange, local: Row | undefined): void;
  /** after it is applied: `row` as the change left it (`local`: as it stood before, on a patch) */
  after?(t: Touched, c: WireChange, row: Row, inserted: boolean, local?: Row): void;
}

/** A table's own check of a change before anything of a batch is written (refusing it throws). */
export type ChangeCheck = (trx: Executor, ctx: ApplyContext, c: WireChange) => Promise<void>;
