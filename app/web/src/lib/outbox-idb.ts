import { reopenTo, type QueueEntry, type QueueStore } from './outbox-queue.ts';

/**
 * The outbox's queue in this browser's IndexedDB (raw API, one object store keyed by an
 * auto-increment seq: the queue's order), so a reload or a crash loses no write that waits.
 * Apart from outbox-queue.ts so the rules there are tested without a browser.
 */
const DB = 'comanda-outbox';
const STORE = 'writes';

const done = (req: IDBRequest | IDBTransaction) =>
  new Promise<void>((resolve, reject) => {
    if ('oncomplete' in req) {
      req.oncomplete = () => resolve();
      req.onerror = () => reject(req.error);
      req.onabort = () => reject(req.error);
    } else {
      req.onsuccess = () => resolve();
      req.onerror = () => reject(req.error);
    }
  });

/** The queue in this browser's IndexedDB (one per origin: the hub's page keeps it). */
export function indexedDbStore(): QueueStore {
  let opening: Promise<IDBDatabase> | null = null;
  const db = () =>
    (opening ??= new Promise<IDBDatabase>((resolve, reject) => {
      const req = indexedDB.open(DB, 1);
      req.onupgradeneeded = () => req.result.createObjectStore(STORE, { keyPath: 'seq', autoIncrement: true });
      req.onsuccess = () => resolve(req.result);
      req.onerror = () => reject(req.error);
    }));
  const tx = async (mode: IDBTransactionMode) => (await db()).transaction(STORE, mode);
  return {
    async add(e) {
      const t = await tx('readwrite');
      const req = t.objectStore(STORE).add(e);
      await done(t);
      return { ...e, seq: Number(req.result) };
    },
    async all() {
      const t = await tx('readonly');
      const req = t.objectStore(STORE).getAll();
      await done(req);
      // keys ascend: the queue's order
      return req.result as QueueEntry[];
    },
    async put(e) {
      const t = await tx('readwrite');
      t.objectStore(STORE).put(e);
      await done(t);
    },
    async remove(seq) {
      const t = await tx('readwrite');
      t.objectStore(STORE).delete(seq);
      await done(t);
    },
    async opened(seq, table, order) {
      const t = await tx('readwrite');
      const store = t.objectStore(STORE);
      store.delete(seq);
      const req = store.getAll();
      req.onsuccess = () => {
        for (const e of req.result as QueueEntry[]) {
          const moved = reopenTo(e, table, order);
          if (moved) store.put(moved);
        }
      };
      await done(t);
    },
  };
}
