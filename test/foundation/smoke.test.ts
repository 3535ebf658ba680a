import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../helpers/db.ts';
import { startHub, type TestHub } from '../helpers/server.ts';

describe.each(DIALECTS)('smoke on %s', (dialect) => {
  let hub: TestHub;
  beforeAll(async () => {
    hub = await startHub(dialect);
  });
  afterAll(() => hub?.close());

  it('serves health and a menu round trip', async () => {
    expect((await hub.api.get('/health', { key: null })).body.status).toBe('ok');
    const cat = await hub.api.post('/v1/menu_categories', { name: 'Pasta', station: 'kitchen' });
    expect(cat.status).toBe(201);
    const item = await hub.api.post('/v1/menu_items', { name: 'Carbonara', category: cat.body.id, price: 1450 });
    expect(item.status).toBe(201);
    const list = await hub.api.get('/v1/menu_items?limit=100&expand[]=category');
    expect(list.status).toBe(200);
    expect(list.body.data[0].category.name).toBe('Pasta');
  });
});
