import { DateTime } from 'luxon';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../helpers/db.ts';
import { countRows, startHub, type TestHub } from '../helpers/server.ts';
import { addPrinter, addServer, addTable, appendRound, createOrder, drain, jobsOf, PrinterEmulator, setStatus } from './fixtures.ts';

const svgText = (svg: string) => svg.replace(/<[^>]+>/g, '').replace(/&#xa0;/g, ' ');

describe.each(DIALECTS)('kitchen tickets and receipts on %s', (dialect) => {
  let hub: TestHub;
  const emu: Record<'kitchen' | 'bar' | 'grill' | 'front', PrinterEmulator> = {} as any;
  const printer: Record<string, { id: string }> = {};
  let tableId: string;
  let serverId: string;

  beforeAll(async () => {
    hub = await startHub(dialect);
    for (const k of ['kitchen', 'bar', 'grill', 'front'] as const) emu[k] = await PrinterEmulator.start();
    expect((await hub.api.post('/v1/stations', { key: 'grill', name: 'Grill' })).status).toBe(201);
    printer.kitchen = await addPrinter(hub, emu.kitchen, { name: 'Kitchen', stations: ['kitchen'] });
    printer.bar = await addPrinter(hub, emu.bar, { name: 'Bar', stations: ['bar'], paper_width: 58 });
    printer.grill = await addPrinter(hub, emu.grill, { name: 'Grill', stations: ['grill'] });
    printer.front = await addPrinter(hub, emu.front, { name: 'Front', prints_receipts: true });
    tableId = await addTable(hub, 12);
    serverId = await addServer(hub, 'Maria');
  });
  afterAll(async () => {
    await hub?.close();
    for (const e of Object.values(emu)) await e?.close();
  });

  const counts = () => Object.fromEntries(Object.entries(emu).map(([k, e]) => [k, e.prints().length]));

  it('sends each station only its own lines, with order, table, type, time, server, modifiers and notes', async () => {
    const { order } = await createOrder(hub, {
      tableId,
      serverId,
      notes: 'Birthday: bring a candle',
      lines: [
        { name: 'Spaghetti carbonara', station: 'kitchen', quantity: 2, unit_price: 1450, modifiers: [{ group: 'Pasta extras', name: 'Extra parmigiano', price_adjustment: 150 }], notes: 'no pepper' },
        { name: 'Aperol Spritz', station: 'bar', unit_price: 890 },
        { name: 'Tagliata di manzo', station: 'grill', unit_price: 2690, modifiers: [{ group: 'Doneness', name: 'Medium rare', price_adjustment: 0 }] },
        { name: 'Margherita', station: 'kitchen', unit_price: 1050 },
      ],
    });
    await drain(hub);
    expect(counts()).toEqual({ kitchen: 1, bar: 1, grill: 1, front: 0 });

    const time = DateTime.fromMillis(hub.clock.now(), { zone: 'Europe/Berlin' }).toFormat('yyyy-MM-dd HH:mm');
    const kitchen = emu.kitchen.texts()[0];
    for (const s of [`Order #${order.order_number}`, 'Table 12', 'DINE IN', time, 'Server: Maria', '2 x Spaghetti carbonara', '+ Pasta extras: Extra parmigiano', 'Note: no pepper', '1 x Margherita', 'Order note:', 'Birthday: bring a candle']) {
      expect(kitchen, s).toContain(s);
    }
    expect(kitchen).not.toContain('Spritz');
    expect(kitchen).not.toContain('Tagliata');
    const bar = emu.bar.texts()[0];
    expect(bar).toContain('1 x Aperol Spritz');
    expect(bar).not.toContain('carbonara');
    const grill = emu.grill.texts()[0];
    expect(grill).toContain('1 x Tagliata di manzo');
    expect(grill).toContain('+ Doneness: Medium rare');
    expect(grill).not.toContain('Margherita');
    // a real ESC/POS stream: initialise first, cut at the end
    expect(emu.kitchen.prints()[0].subarray(0, 2)).toEqual(Buffer.from([0x1b, 0x40]));
    // the status was asked before the document
    expect(emu.kitchen.connections.at(-1)!.statusQueries).toEqual([1, 2, 4]);

    const jobs = await jobsOf(hub, `&order=${order.id}`);
    expect(jobs.map((j) => [j.station, j.state, j.kind, j.printer]).sort()).toEqual(
      [
        ['bar', 'printed', 'kitchen_ticket', printer.bar.id],
        ['grill', 'printed', 'kitchen_ticket', printer.grill.id],
        ['kitchen', 'printed', 'kitchen_ticket', printer.kitchen.id],
      ].sort(),
    );
    expect(jobs.every((j) => j.attempts === 1 && j.round === 1 && j.printed_at !== null && j.livemode === true)).toBe(true);
    const kp = await hub.api.get(`/v1/printers/${printer.kitchen.id}`);
    expect(kp.body.status.state).toBe('online');
  });

  it('prints a later round with only its new lines, and nothing for stations without a printer', async () => {
    const { order } = await createOrder(hub, { lines: [{ name: 'Lasagne', station: 'kitchen' }, { name: 'Espresso', station: 'bar' }] });
    await drain(hub);
    const before = counts();
    await appendRound(hub, order.id, [
      { name: 'Garlic bread', station: 'kitchen', quantity: 3 },
      { name: 'Tiramisu', station: 'dessert' },
    ]);
    await drain(hub);
    expect(counts()).toEqual({ ...before, kitchen: before.kitchen + 1 });
    const round2 = emu.kitchen.texts().at(-1)!;
    expect(round2).toContain('3 x Garlic bread');
    expect(round2).toContain('ROUND 2');
    expect(round2).not.toContain('Lasagne');
    const jobs = await jobsOf(hub, `&order=${order.id}`);
    expect(jobs.filter((j) => j.round === 2).map((j) => j.station)).toEqual(['kitchen']);
  });

  it('names the guest and the order type on a takeout ticket', async () => {
    const { order } = await createOrder(hub, { type: 'takeout', customerName: 'Ada L.', lines: [{ name: 'Calzone', station: 'kitchen' }] });
    await drain(hub);
    const text = emu.kitchen.texts().at(-1)!;
    expect(text).toContain(`Order #${order.order_number}`);
    expect(text).toContain('TAKEOUT');
    expect(text).toContain('Guest: Ada L.');
    expect(text).toContain('1 x Calzone');
  });

  it('prints nothing for a draft, then everything when it is placed', async () => {
    const { order } = await createOrder(hub, { status: 'draft', lines: [{ name: 'Panna cotta draft', station: 'kitchen' }] });
    await drain(hub);
    expect(await jobsOf(hub, `&order=${order.id}`)).toEqual([]);
    const before = counts();
    await setStatus(hub, order.id, 'placed');
    await drain(hub);
    expect(counts()).toEqual({ ...before, kitchen: before.kitchen + 1 });
    expect(emu.kitchen.texts().at(-1)).toContain('Panna cotta draft');
    // moving on through the kitchen prints nothing more
    await setStatus(hub, order.id, 'preparing');
    await drain(hub);
    expect(counts()).toEqual({ ...before, kitchen: before.kitchen + 1 });
  });

  it('prints a receipt on completion and on request, in the restaurant currency', async () => {
    const { order } = await createOrder(hub, {
      tableId,
      lines: [
        { name: 'Bistecca', station: 'grill', unit_price: 3890, tax_rate: 0.07 },
        { name: 'Acqua', station: 'bar', unit_price: 590, quantity: 2, tax_rate: 0.19 },
      ],
    });
    await drain(hub);
    const front = emu.front.prints().length;
    await setStatus(hub, order.id, 'completed');
    await drain(hub);
    expect(emu.front.prints().length).toBe(front + 1);
    const text = emu.front.texts().at(-1)!;
    const subtotal = 3890 + 2 * 590;
    const tax7 = Math.round(3890 * 0.07);
    const tax19 = Math.round(2 * 590 * 0.19);
    for (const s of ['Test Bistro', `Order #${order.order_number}`, '1 x Bistecca', '38.90', '2 x Acqua', '11.80', 'Subtotal', (subtotal / 100).toFixed(2), 'plus tax 7 %', (tax7 / 100).toFixed(2), 'plus tax 19 %', (tax19 / 100).toFixed(2), 'TOTAL EUR', ((subtotal + tax7 + tax19) / 100).toFixed(2)]) {
      expect(text, s).toContain(s);
    }

    const res = await hub.api.post(`/v1/orders/${order.id}/receipt`, {});
    expect(res.status).toBe(201);
    expect(res.body.data).toHaveLength(1);
    expect(res.body.data[0]).toMatchObject({ object: 'print_job', kind: 'receipt', printer: printer.front.id, order: order.id, state: 'queued' });
    await drain(hub);
    expect(emu.front.prints().length).toBe(front + 2);
    // on a named printer instead
    const onBar = await hub.api.post(`/v1/orders/${order.id}/receipt`, { printer: printer.bar.id });
    expect(onBar.body.data.map((j: any) => j.printer)).toEqual([printer.bar.id]);
    await drain(hub);
    expect(emu.bar.texts().at(-1)).toContain('TOTAL EUR');
  });

  it('refuses bad receipt requests and writes nothing', async () => {
    const { order: draft } = await createOrder(hub, { status: 'draft', lines: [{ name: 'X', station: 'kitchen' }] });
    const { order } = await createOrder(hub, { lines: [{ name: 'Y', station: 'other' }] });
    const other = await hub.addRestaurant('receipt-elsewhere');
    const { order: theirs } = await createOrder(hub, { restaurantId: other.restaurant.id, lines: [{ name: 'Z', station: 'kitchen' }] });
    const cases: [string, unknown, number, string, string | null][] = [
      [`/v1/orders/ord_missing/receipt`, {}, 404, 'resource_missing', 'id'],
      [`/v1/orders/${theirs.id}/receipt`, {}, 404, 'resource_missing', 'id'],
      [`/v1/orders/${draft.id}/receipt`, {}, 409, 'state_conflict', 'id'],
      [`/v1/orders/${order.id}/receipt`, { printer: 'prt_missing' }, 404, 'resource_missing', 'printer'],
      [`/v1/orders/${order.id}/receipt`, { printer: 42 }, 400, 'parameter_invalid', 'printer'],
      [`/v1/orders/${order.id}/receipt`, { printer: 'p'.repeat(65) }, 400, 'parameter_invalid', 'printer'],
    ];
    for (const [path, body, status, code, param] of cases) {
      const jobs = await countRows(hub, 'print_jobs');
      const res = await hub.api.post(path, body);
      expect(res.status, path).toBe(status);
      expect(res.body.error).toMatchObject({ code, param });
      expect(await countRows(hub, 'print_jobs')).toBe(jobs);
    }
    // a restaurant without a receipt printer
    const jobs = await countRows(hub, 'print_jobs');
    const none = await other.api.post(`/v1/orders/${theirs.id}/receipt`, {});
    expect(none.status).toBe(409);
    expect(none.body.error.code).toBe('printer_not_configured');
    expect(await countRows(hub, 'print_jobs')).toBe(jobs);
  });

  it('previews a job as SVG, reprints it marked REPRINT, prints a test page', async () => {
    const { order } = await createOrder(hub, { lines: [{ name: 'Ossobuco', station: 'kitchen' }] });
    await drain(hub);
    const [job] = await jobsOf(hub, `&order=${order.id}`);
    const preview = await hub.api.get(`/v1/print_jobs/${job.id}/preview`);
    expect(preview.status).toBe(200);
    expect(preview.headers.get('content-type')).toContain('image/svg+xml');
    // opened on its own, the image runs and loads nothing, and is never taken for anything else
    expect(preview.headers.get('content-security-policy')).toMatch(/^default-src 'none'/);
    expect(preview.headers.get('x-content-type-options')).toBe('nosniff');
    expect(preview.body.startsWith('<svg')).toBe(true);
    expect(svgText(preview.body)).toContain('1 x Ossobuco');

    const before = emu.kitchen.prints().length;
    const re = await hub.api.post(`/v1/print_jobs/${job.id}/reprint`, {});
    expect(re.status).toBe(201);
    expect(re.body).toMatchObject({ kind: 'kitchen_ticket', marks: ['REPRINT'], reprint_of: job.id, printer: printer.kitchen.id, order: order.id, state: 'queued' });
    await drain(hub);
    expect(emu.kitchen.prints().length).toBe(before + 1);
    const text = emu.kitchen.texts().at(-1)!;
    expect(text).toContain('REPRINT');
    expect(text).toContain('1 x Ossobuco');
    expect(svgText((await hub.api.get(`/v1/print_jobs/${re.body.id}/preview`)).body)).toContain('REPRINT');
    expect((await hub.api.get(`/v1/print_jobs/${re.body.id}`)).body.state).toBe('printed');

    const test = await hub.api.post(`/v1/printers/${printer.grill.id}/test`);
    expect(test.status).toBe(201);
    expect(test.body).toMatchObject({ kind: 'test_page', printer: printer.grill.id, order: null });
    await drain(hub);
    expect(emu.grill.texts().at(-1)).toContain('TEST PAGE');
    const listed = await jobsOf(hub, `&kind=test_page&state=printed&printer=${printer.grill.id}`);
    expect(listed.map((j) => j.id)).toEqual([test.body.id]);
    const expanded = await hub.api.get(`/v1/print_jobs/${test.body.id}?expand[]=printer`);
    expect(expanded.body.printer).toMatchObject({ id: printer.grill.id, name: 'Grill' });
  });

  it('refuses bad job requests and writes nothing', async () => {
    const other = await hub.addRestaurant('jobs-elsewhere');
    const theirPrinter = await other.api.post('/v1/printers', { name: 'Theirs', transport: { type: 'tcp', host: '127.0.0.1', port: 9 }, is_active: true });
    const theirJob = await other.api.post(`/v1/printers/${theirPrinter.body.id}/test`);
    expect(theirJob.status).toBe(201);
    const [mine] = await jobsOf(hub);
    const disabled = await hub.api.post('/v1/printers', { name: 'Off', transport: { type: 'tcp', host: '127.0.0.1', port: 9 }, is_active: false });
    const cases: [() => Promise<any>, number, string, string | null][] = [
      [() => hub.api.get('/v1/print_jobs/pj_missing'), 404, 'resource_missing', 'id'],
      [() => hub.api.get(`/v1/print_jobs/${theirJob.body.id}`), 404, 'resource_missing', 'id'],
      [() => hub.api.get(`/v1/print_jobs/${theirJob.body.id}/preview`), 404, 'resource_missing', 'id'],
      [() => hub.api.post(`/v1/print_jobs/${theirJob.body.id}/reprint`, {}), 404, 'resource_missing', 'id'],
      [() => hub.api.post('/v1/print_jobs/pj_missing/reprint', {}), 404, 'resource_missing', 'id'],
      [() => hub.api.post(`/v1/print_jobs/${mine.id}/reprint`, { printer: 'prt_missing' }), 404, 'resource_missing', 'printer'],
      [() => hub.api.post(`/v1/print_jobs/${mine.id}/reprint`, { printer: theirPrinter.body.id }), 404, 'resource_missing', 'printer'],
      [() => hub.api.post(`/v1/print_jobs/${mine.id}/reprint`, { printer: ['x'] }), 400, 'parameter_invalid', 'printer'],
      [() => hub.api.post(`/v1/printers/${disabled.body.id}/test`), 409, 'state_conflict', 'id'],
      [() => hub.api.get('/v1/print_jobs?state=lost'), 400, 'parameter_invalid', 'state'],
      [() => hub.api.get('/v1/print_jobs?kind=menu'), 400, 'parameter_invalid', 'kind'],
      [() => hub.api.get('/v1/print_jobs?limit=101'), 400, 'parameter_invalid', 'limit'],
      [() => hub.api.get('/v1/print_jobs?printer=' + 'p'.repeat(65)), 400, 'parameter_invalid', 'printer'],
      [() => hub.api.get('/v1/print_jobs?sort=asc'), 400, 'parameter_unknown', 'sort'],
      [() => hub.api.get('/v1/print_jobs?starting_after=bogus'), 400, 'invalid_cursor', 'starting_after'],
      [() => hub.api.get(`/v1/print_jobs/${mine.id}/preview?width=58`), 400, 'parameter_unknown', 'width'],
    ];
    for (const [run, status, code, param] of cases) {
      const jobs = await countRows(hub, 'print_jobs');
      const res = await run();
      expect(res.status, JSON.stringify(res.body)).toBe(status);
      expect(res.body.error).toMatchObject({ code, param });
      expect(await countRows(hub, 'print_jobs')).toBe(jobs);
    }
    // the other restaurant's list does not show ours
    const theirs = await other.api.get('/v1/print_jobs?limit=100');
    expect(theirs.body.data.map((j: any) => j.id)).toEqual([theirJob.body.id]);
  });

  it('prints nothing for sandbox orders: their jobs are recorded as skipped', async () => {
    const before = Object.values(emu).map((e) => e.connections.length);
    const { order } = await createOrder(hub, { livemode: false, lines: [{ name: 'Sandbox pasta', station: 'kitchen' }, { name: 'Sandbox wine', station: 'bar' }] });
    await setStatus(hub, order.id, 'completed');
    const receipt = await hub.api.withKey(hub.keys.sandbox).post(`/v1/orders/${order.id}/receipt`, {});
    expect(receipt.status).toBe(201);
    const test = await hub.api.withKey(hub.keys.sandbox).post(`/v1/printers/${printer.kitchen.id}/test`);
    expect(test.body.state).toBe('skipped');
    await drain(hub);
    const jobs = await jobsOf(hub, `&order=${order.id}`, hub.keys.sandbox);
    expect(jobs.map((j) => j.kind).sort()).toEqual(['kitchen_ticket', 'kitchen_ticket', 'receipt', 'receipt']);
    expect(jobs.every((j) => j.state === 'skipped' && j.livemode === false && j.attempts === 0)).toBe(true);
    // each key sees its own mode's jobs: a live key finds none of these, and cannot reprint them
    expect(await jobsOf(hub, `&order=${order.id}`)).toEqual([]);
    expect((await hub.api.get(`/v1/print_jobs/${jobs[0].id}`)).status).toBe(404);
    expect((await hub.api.get(`/v1/print_jobs/${jobs[0].id}/preview`)).status).toBe(404);
    expect((await hub.api.post(`/v1/print_jobs/${jobs[0].id}/reprint`, {})).status).toBe(404);
    // a reprint of a sandbox job still prints nothing
    const re = await hub.api.withKey(hub.keys.sandbox).post(`/v1/print_jobs/${jobs[0].id}/reprint`, {});
    expect(re.body.state).toBe('skipped');
    await drain(hub);
    // not one connection was made to any printer
    expect(Object.values(emu).map((e) => e.connections.length)).toEqual(before);
  });

  it('prints a note whole whatever line or control characters it holds (an allergy never vanishes)', async () => {
    const notes = ['ALLERGY:\u2028NUTS', 'no\u2029GLUTEN at all', 'coeliac\u0085strict', 'tab\there\r\nnext', 'shell\u202efish', 'sesame\u000bfree'];
    await createOrder(hub, { lines: notes.map((n, i) => ({ name: `Dish ${i}`, station: 'kitchen', unit_price: 100, notes: n })) });
    await drain(hub);
    const ticket = emu.kitchen.texts().at(-1)!;
    for (const s of ['Note: ALLERGY: NUTS', 'Note: no GLUTEN at all', 'Note: coeliac strict', 'Note: tab here next', 'Note: shellfish', 'Note: sesame free']) expect(ticket, s).toContain(s);
  });
});
