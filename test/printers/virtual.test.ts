import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../helpers/db.ts';
import { startHub, type TestHub } from '../helpers/server.ts';
import { createOrder, drain, jobsOf } from './fixtures.ts';

/** The text of a preview: the SVG's characters, its no-break spaces as spaces. */
const svgText = (svg: string) => svg.replace(/<[^>]+>/g, '').replace(/&#xa0;/g, ' ');
/** A preview's printed lines (receiptline draws each in a group of its own), spaces left out. */
const svgLines = (svg: string) => svg.split(/<g transform="translate\(0,[\d.]+\)">/).map((line) => svgText(line).replace(/\s/g, ''));

/**
 * A virtual printer: paper without a printer. Its jobs print nowhere, end as printed, and
 * stay in the queue where their preview shows kitchen tickets, receipts and the Z report as
 * they would come out.
 */
describe.each(DIALECTS)('a virtual printer on %s', (dialect) => {
  let hub: TestHub;
  let printer: { id: string };
  const sent: unknown[] = [];

  beforeAll(async () => {
    hub = await startHub(dialect);
    // nothing of a virtual printer reaches the dispatcher's send (a real one would be a socket)
    hub.server.services.printQueue!.opts.send = async (transport) => {
      sent.push(transport);
      throw new Error('no printer here');
    };
    const res = await hub.api.post('/v1/printers', { name: 'Paper preview', transport: { type: 'virtual' }, stations: ['kitchen'], prints_receipts: true, paper_width: 58 });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.transport).toEqual({ type: 'virtual' });
    printer = res.body;
  });
  afterAll(() => hub?.close());

  it('refuses a virtual transport with an address, and a network one without', async () => {
    const bad = await hub.api.post('/v1/printers', { name: 'X', transport: { type: 'virtual', host: '10.0.0.5' } });
    expect(bad.status).toBe(400);
    expect(bad.body.error.param).toMatch(/^transport/);
    const none = await hub.api.post('/v1/printers', { name: 'X', transport: { type: 'usb' } });
    expect(none.status).toBe(400);
  });

  it('keeps a kitchen ticket, a receipt and the Z report as printed, each previewed as it would print', async () => {
    const { order } = await createOrder(hub, { lines: [{ name: 'Tasting menu', station: 'kitchen', quantity: 1, unit_price: 10190, tax_rate: 0 }] });
    const receipt = await hub.api.post(`/v1/orders/${order.id}/receipt`, {});
    expect(receipt.status, JSON.stringify(receipt.body)).toBe(201);
    const z = await hub.api.post('/v1/reports/day_close/print', { date: order.business_date });
    expect(z.status, JSON.stringify(z.body)).toBe(201);
    await drain(hub);

    const jobs = await jobsOf(hub, `&printer=${printer.id}`);
    expect(jobs.map((j) => [j.kind, j.state]).sort()).toEqual([
      ['kitchen_ticket', 'printed'],
      ['receipt', 'printed'],
      ['z_report', 'printed'],
    ]);
    expect(jobs.every((j) => j.printed_at !== null && j.last_error === null && j.attempts === 1)).toBe(true);
    expect(sent).toEqual([]);

    const preview = async (kind: string) => {
      const res = await hub.api.get(`/v1/print_jobs/${jobs.find((j) => j.kind === kind).id}/preview`);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toContain('image/svg+xml');
      // drawn at the printer's 58 mm (384 dots)
      expect(res.body).toMatch(/^<svg width="384px"/);
      return res.body as string;
    };
    expect(svgText(await preview('kitchen_ticket'))).toContain('1 x Tasting menu');
    const paper = await preview('receipt');
    expect(svgText(paper)).toContain('1 x Tasting menu');
    // the total on one line: TOTAL, the currency and every digit
    expect(svgLines(paper)).toContain('TOTALEUR101.90');
    expect(svgText(await preview('z_report'))).toContain('Z REPORT');

    // the printer reads as online: nothing is wrong with paper that does not exist
    const listed = await hub.api.get(`/v1/printers/${printer.id}`);
    expect(listed.body.status.state).toBe('online');
    // its test page says what it is
    const test = await hub.api.post(`/v1/printers/${printer.id}/test`, {});
    expect(test.status).toBe(201);
    await drain(hub);
    expect(svgText((await hub.api.get(`/v1/print_jobs/${test.body.id}/preview`)).body)).toContain('virtual');
  });

  it('turns a network printer into a virtual one and back', async () => {
    const tcp = await hub.api.post('/v1/printers', { name: 'Bar', transport: { type: 'tcp', host: '192.0.2.10' } });
    const virtual = await hub.api.patch(`/v1/printers/${tcp.body.id}`, { transport: { type: 'virtual' } });
    expect(virtual.body.transport).toEqual({ type: 'virtual' });
    const back = await hub.api.patch(`/v1/printers/${tcp.body.id}`, { transport: { type: 'tcp', host: '192.0.2.11' } });
    expect(back.body.transport).toEqual({ type: 'tcp', host: '192.0.2.11', port: 9100 });
  });
});
