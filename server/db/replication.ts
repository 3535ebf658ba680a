/**
 * Whether a table is replicated, declared once, in the table's own file (its `*.table.ts`, or the
 * feature's db/schema file for the tables declared there), by adding its name to one of these
 * (TypeScript's interface merging, as features add their services):
 *
 *   declare module '../replication.ts' { interface ReplicatedTables { orders: true } }
 *   declare module '../replication.ts' { interface LocalTables { print_jobs: true } }
 *
 * A replicated table's rows are records: written through db/records.ts, in the change log,
 * carried by sync. A local table is this node's own bookkeeping. db/schema.ts derives
 * `RecordTable` and `LocalTable` from these and does not compile while a table declares
 * neither or both.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface ReplicatedTables {}
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface LocalTables {}
