import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { literal, renderCommands, renderSvg, renderText } from '../../printers/encoder.ts';
import { PrinterEmulator } from '../../printers/emulator.ts';
import { interpretStatus } from '../../printers/status.ts';
import { DEFAULT_SEND_OPTIONS, PrintError, send } from '../../printers/transport.ts';

const opts = { ...DEFAULT_SEND_OPTIONS, statusTimeoutMs: 200, closeTimeoutMs: 100 };

describe('encoder', () => {
  it('keeps free text literal: no column split, no decoration, no control bytes', () => {
    const text = renderText(`|${literal('Fish | Chips ^^ "big" {x} - = _u_ `inv`\u0007')}`, 80);
    expect(text).toContain('Fish | Chips ^^ "big" {x} - = _u_ `inv`');
    expect(literal('a\nb\tc')).toBe('a b c');
  });

  it('renders one document as ESC/POS, StarPRNT, text and SVG at the paper width', () => {
    const doc = `|^^2 x ${literal('Spaghetti carbonara with extra parmigiano')}`;
    const escpos = renderCommands(doc, { language: 'escpos', paperWidth: 80 });
    const star = renderCommands(doc, { language: 'starprnt', paperWidth: 80 });
    expect(escpos.subarray(0, 2)).toEqual(Buffer.from([0x1b, 0x40]));
    expect(escpos.equals(star)).toBe(false);
    expect(escpos.toString('latin1')).toContain('2 x Spaghetti carbonara with extra parmigiano');
    expect(star.toString('latin1')).toContain('2 x Spaghetti carbonara with extra parmigiano');
    // 41 characters: one line on 80 mm (48 cpl), two on 58 mm (32 cpl)
    expect(renderText(doc, 80).trimEnd().split('\n')).toHaveLength(1);
    expect(renderText(doc, 58).trimEnd().split('\n')).toHaveLength(2);
    expect(renderSvg(doc, 58)).toMatch(/^<svg width="384px"/);
    expect(renderSvg(doc, 80)).toMatch(/^<svg width="576px"/);
    // nothing is fetched from the internet when a preview is shown
    expect(renderSvg(doc, 80).replaceAll('http://www.w3.org/2000/svg', '')).not.toMatch(/https?:\/\//);
  });
});

describe('ESC/POS status bytes', () => {
  it('reads online, paper end, cover open, near end and garbage', () => {
    expect(interpretStatus(0x12, 0x12, 0x12)).toEqual({ state: 'online', detail: null });
    expect(interpretStatus(0x12, 0x12, 0x12 | 0x0c)).toEqual({ state: 'online', detail: 'paper near end' });
    expect(interpretStatus(0x12 | 0x08, 0x12 | 0x20, 0x12 | 0x60).state).toBe('paper_out');
    expect(interpretStatus(0x12 | 0x08, 0x12 | 0x04, 0x12)).toEqual({ state: 'offline', detail: 'cover open' });
    expect(interpretStatus(0x12 | 0x08, 0x12 | 0x40, 0x12).state).toBe('error');
    expect(interpretStatus(0x00, 0x12, 0x12).state).toBe('error');
  });
});

describe('raw TCP transport against the emulator', () => {
  let emu: PrinterEmulator;
  beforeAll(async () => {
    emu = await PrinterEmulator.start();
  });
  afterAll(() => emu?.close());
  const target = () => ({ type: 'tcp' as const, host: emu.host, port: emu.port });
  const bytes = renderCommands('|^^1 x Minestrone', { language: 'escpos', paperWidth: 80 });

  it('delivers the document byte for byte after a status check', async () => {
    emu.setMode('online');
    const before = emu.prints().length;
    await expect(send(target(), bytes, opts)).resolves.toEqual({ state: 'online', detail: null });
    expect(emu.prints()).toHaveLength(before + 1);
    expect(emu.prints().at(-1)!.equals(bytes)).toBe(true);
    expect(emu.connections.at(-1)!.statusQueries).toEqual([1, 2, 4]);
  });

  it('sends nothing to a printer out of paper or offline', async () => {
    emu.setMode('paper_out');
    const err = await send(target(), bytes, opts).catch((e) => e);
    expect(err).toBeInstanceOf(PrintError);
    expect(err).toMatchObject({ state: 'paper_out', written: false });
    expect(emu.connections.at(-1)!.document.length).toBe(0);

    emu.setMode('offline');
    const off = await send(target(), bytes, opts).catch((e) => e);
    expect(off).toMatchObject({ state: 'offline', written: false });
    emu.setMode('online');
  });

  it('writes nothing when the sender lost its claim before writing', async () => {
    emu.setMode('online');
    const before = emu.connections.length;
    const err = await send(target(), bytes, { ...opts, beforeWrite: async () => false }).catch((e) => e);
    expect(err).toMatchObject({ written: false });
    expect(emu.connections).toHaveLength(before + 1);
    expect(emu.connections.at(-1)!.document.length).toBe(0);
  });

  it('skips the status query when told to (StarPRNT)', async () => {
    await send(target(), bytes, { ...opts, queryStatus: false });
    expect(emu.connections.at(-1)!.statusQueries).toEqual([]);
    expect(emu.prints().at(-1)!.equals(bytes)).toBe(true);
  });
});

describe('raw TCP transport against odd printers', () => {
  const servers: net.Server[] = [];
  const sockets: net.Socket[] = [];
  afterAll(async () => {
    for (const s of sockets) s.destroy();
    for (const s of servers) await new Promise((r) => s.close(r));
  });
  async function server(onSocket: (s: net.Socket) => void, allowHalfOpen = false): Promise<number> {
    const srv = net.createServer({ allowHalfOpen }, (s) => {
      sockets.push(s);
      s.on('error', () => {});
      onSocket(s);
    });
    servers.push(srv);
    await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
    return (srv.address() as net.AddressInfo).port;
  }

  it('fails a printer that never answers the status query, before writing', async () => {
    const received: Buffer[] = [];
    const port = await server((s) => s.on('data', (d) => received.push(d)));
    const err = await send({ type: 'tcp', host: '127.0.0.1', port }, Buffer.from('DOC'), opts).catch((e) => e);
    expect(err).toMatchObject({ state: 'offline', written: false });
    expect(Buffer.concat(received).toString('latin1')).not.toContain('DOC');
  });

  it('accepts a printer that keeps the connection open after taking every byte', async () => {
    const received: Buffer[] = [];
    const port = await server((s) => {
      s.on('data', (d) => {
        received.push(d);
        if (d.includes(Buffer.from([0x10, 0x04]))) s.write(Buffer.from([0x12, 0x12, 0x12]));
      });
    }, true); // half-open: it never ends its side, like a printer waiting for its own idle timeout
    await expect(send({ type: 'tcp', host: '127.0.0.1', port }, Buffer.from('DOCUMENT'), opts)).resolves.toMatchObject({ state: 'online' });
    expect(Buffer.concat(received).toString('latin1')).toContain('DOCUMENT');
  });

  it('counts a reset after the document went out as a failure that may have printed', async () => {
    const port = await server((s) => {
      s.on('data', (d) => {
        if (d.includes(Buffer.from([0x10, 0x04]))) s.write(Buffer.from([0x12, 0x12, 0x12]));
        if (d.includes(Buffer.from('DOCUMENT'))) s.resetAndDestroy();
      });
    }, true);
    const err = await send({ type: 'tcp', host: '127.0.0.1', port }, Buffer.from('DOCUMENT'), opts).catch((e) => e);
    expect(err).toBeInstanceOf(PrintError);
    expect(err).toMatchObject({ state: 'error', written: true });
  });

  it('fails a port nobody listens on', async () => {
    const closed = await new Promise<number>((resolve) => {
      const s = net.createServer();
      s.listen(0, '127.0.0.1', () => {
        const p = (s.address() as net.AddressInfo).port;
        s.close(() => resolve(p));
      });
    });
    const err = await send({ type: 'tcp', host: '127.0.0.1', port: closed }, Buffer.from('DOC'), opts).catch((e) => e);
    expect(err).toMatchObject({ state: 'offline', written: false });
    expect(err.message).toMatch(/ECONNREFUSED/);
  });
});
