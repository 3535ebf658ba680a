import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../helpers/db.ts';
import { countRows, startHub, type TestHub } from '../helpers/server.ts';
import { seedMenu, type Menu } from '../orders/fixtures.ts';
import { addPrinter, drain, jobsOf, PrinterEmulator } from './fixtures.ts';

const svgText = (svg: string) => svg.replace(/<[^>]+>/g, '').replace(/&#xa0;/g, ' ');

describe.each(DIALECTS)('tickets of orders placed through the API on %s', (dialect) => {
  let hub: TestHub;
  let emu: PrinterEmulator;
  let menu: Menu;

  beforeAll(async () => {
    hub = await startHub(dialect);
    emu = await PrinterEmulator.start();
    menu = await seedMenu(hub);
    await addPrinter(hub, emu, { name: 'Grill', stations: ['grill'], prints_receipts: true });
  });
  afterAll(async () => {
    await hub?.close();
    await emu?.close();
  });

  it('prints the modifier group name from the menu, not the group id the order line stores', async () => {
    const res = await hub.api.post('/v1/orders', { type: 'takeout', items: [{ menu_item: menu.steak, quantity: 1, modifiers: ['Rare', 'Truffle'] }] });
    expect(res.status).toBe(201);
    // the line stores the group's id, as every order does
    expect(res.body.items[0].modifiers.map((m: any) => m.group)).toEqual([menu.doneness, menu.extras]);
    expect((await hub.api.patch(`/v1/orders/${res.body.id}`, { status: 'placed' })).status).toBe(200);
    await drain(hub);
    const [job] = await jobsOf(hub, `&order=${res.body.id}&kind=kitchen_ticket`);
    expect(job).toBeDefined();
    const preview = svgText((await hub.api.get(`/v1/print_jobs/${job.id}/preview`)).body);
    expect(preview).toContain('1 x Steak');
    expect(preview).toContain('+ Doneness: Rare');
    expect(preview).toContain('+ Extras: Truffle');
    expect(preview).not.toContain(menu.doneness);
    expect(preview).not.toContain(menu.extras);
    // what the printer got says the same
    const printed = emu.texts().at(-1)!;
    expect(printed).toContain('+ Doneness: Rare');
    expect(printed).not.toContain(menu.doneness);
  });

  it('refuses a live order’s receipt to a sandbox key (404, nothing queued), like GET /v1/orders/{id}', async () => {
    const res = await hub.api.post('/v1/orders', { type: 'takeout', items: [{ menu_item: menu.water, quantity: 1 }] });
    expect(res.status).toBe(201);
    expect(res.body.livemode).toBe(true);
    expect((await hub.api.patch(`/v1/orders/${res.body.id}`, { status: 'placed' })).status).toBe(200);
    expect((await hub.api.patch(`/v1/orders/${res.body.id}`, { status: 'completed' })).status).toBe(200);
    await drain(hub);
    const sandbox = hub.api.withKey(hub.keys.sandbox);
    expect((await sandbox.get(`/v1/orders/${res.body.id}`)).status).toBe(404);
    const before = await countRows(hub, 'print_jobs');
    const receipt = await sandbox.post(`/v1/orders/${res.body.id}/receipt`, {});
    expect(receipt.status).toBe(404);
    expect(receipt.body.error).toMatchObject({ code: 'resource_missing', param: 'id' });
    expect(await countRows(hub, 'print_jobs')).toBe(before);
    // the live key still gets it
    expect((await hub.api.post(`/v1/orders/${res.body.id}/receipt`, {})).status).toBe(201);
  });
});
