import { createHash } from 'node:crypto';
import pg from 'pg';

/**
 * A pg client that runs each parameterised statement as a named prepared statement of its
 * connection. kysely sends every statement unnamed, which PostgreSQL parses and plans again on
 * every call; the cloud's statements are short (an order's push and pull are some forty of
 * them), and that overhead, not their execution, was most of PostgreSQL's time. A statement's
 * name is a hash of its text, so one text is parsed once per connection, and after a few calls
 * PostgreSQL keeps a generic plan when it costs no more than planning each call (its own rule).
 *
 * Not named: statements without parameters (sent by the simple protocol, nothing to keep),
 * long IN lists (a text per list length, each used rarely), and new texts once a connection
 * keeps MAX_NAMED (a server-side statement lives as long as its connection).
 */
const MAX_PARAMS = 64;
const MAX_NAMED = 1_000;
const hashes = new Map<string, string>();

function hashOf(text: string): string {
  let h = hashes.get(text);
  if (h === undefined) {
    h = createHash('sha1').update(text).digest('base64url').slice(0, 22);
    if (hashes.size < 20_000) hashes.set(text, h);
  }
  return h;
}

/** PostgreSQL refuses a prepared statement whose result columns changed under it (a migration by another process). */
const STALE_PLAN = '0A000';

export class PreparingClient extends pg.Client {
  /** text → this connection's name for it */
  private readonly named = new Map<string, string>();
  private renamed = 0;

  // kysely calls query(text, values); every other form goes through unchanged
  override query(config: any, values?: any, callback?: any): any {
    if (typeof config !== 'string' || !Array.isArray(values) || values.length === 0 || values.length > MAX_PARAMS || callback !== undefined) {
      return super.query(config, values, callback);
    }
    let name = this.named.get(config);
    if (name === undefined) {
      if (this.named.size >= MAX_NAMED) return super.query(config, values);
      name = `k${hashOf(config)}`;
      this.named.set(config, name);
    }
    return (super.query({ name, text: config, values }) as Promise<pg.QueryResult>).catch((err: { code?: string }) => {
      // the statement that failed is kept by the server under its old shape: the next call
      // prepares it again under a new name (this one's transaction has failed either way)
      if (err?.code === STALE_PLAN) this.named.set(config, `k${hashOf(config)}_${++this.renamed}`);
      throw err;
    });
  }
}
