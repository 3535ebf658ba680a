import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { comanda, ServeProcess } from '../helpers/comanda-process.ts';
import { DIALECTS, freshDatabase } from '../helpers/db.ts';
import type { Database } from '../../server/db/database.ts';

/**
 * A demo venue (`comanda demo`, with history and a waitlist whose parties were seated and
 * notified minutes after they joined) links to a real cloud and is found the same on both
 * sides by `comanda sync audit` (issue 45, items 4 and 5).
 */
for (const dialect of DIALECTS.filter((d) => d === 'postgres')) {
  // 240 s: a demo venue with a day of history built, linked and audited on both sides
  describe(`a demo venue links (cloud on ${dialect})`, { timeout: 240_000 }, () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'comanda-demolink-'));
    let cloudDb: Database | undefined;
    let cloud: ServeProcess | undefined;
    afterAll(async () => {
      await cloud?.kill9();
      await cloudDb?.close();
      fs.rmSync(dir, { recursive: true, force: true });
    });

    it('with a day of history, and its audit is clean', async () => {
      const demo = await comanda('demo', '--data-dir', dir, '--history-days', '1', '--orders-per-day', '20');
      expect(demo.restaurant.id).toMatch(/^rst_/);
      cloudDb = await freshDatabase('postgres');
      cloud = await ServeProcess.start(['--role', 'cloud', '--database-url', cloudDb.url!]);
      const invite = await comanda('sync', 'invite', '--database-url', cloudDb.url!);
      const linked = await comanda('sync', 'link', '--data-dir', dir, '--cloud-url', cloud.url, '--code', invite.code);
      expect(linked).toMatchObject({ linked: true, restaurant_id: demo.restaurant.id });
      const audit = await comanda('sync', 'audit', '--data-dir', dir);
      expect(audit.differences).toEqual([]);
      expect(audit.in_sync).toBe(true);
    });
  });
}
