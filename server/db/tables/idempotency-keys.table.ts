/** Local only, not replicated: a replay answer belongs to the node that gave it. */
export interface IdempotencyKeysTable {
  restaurant_id: string;
  key: string;
  method: string;
  path: string;
  request_hash: string;
  state: 'in_flight' | 'done';
  response_status: number | null;
  response_body: string | null;
  locked_at: number;
  /** the server_processes id of the process running the request (null: claimed before owners were kept) */
  owner: string | null;
  created: number;
}

declare module '../replication.ts' {
  /** local: this node's bookkeeping, outside the change log */
  interface LocalTables {
    idempotency_keys: true;
  }
}
