import { execFile } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, comanda } from '../helpers/comanda-process.ts';
import { freePort } from '../helpers/free-port.ts';

/** `comanda sync link` as an operator runs it: its exit code and what it wrote. */
function link(dir: string, url: string): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [BIN, 'sync', 'link', '--data-dir', dir, '--cloud-url', url, '--code', 'abcdefghijklmnop'], { env: { ...process.env, LOG_LEVEL: 'warn' } }, (err: any, stdout, stderr) =>
      resolve({ code: err ? (err.code ?? 1) : 0, stdout: String(stdout), stderr: String(stderr) }),
    );
  });
}

/**
 * Every way a link can fail says so in one line that names the cloud's URL and what to check:
 * no stack, no silent exit.
 */
describe('comanda sync link: failures in one line', { timeout: 120_000 }, () => { // 120 s: hub and cloud (processes or a pair), the line cut and restored: several sync rounds
  let dir: string;
  const servers: { close(): unknown }[] = [];
  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'comanda-linkerr-'));
    await comanda('init', '--data-dir', dir, '--name', 'Bistro', '--slug', `bistro-${Date.now().toString(36)}`);
  }, 180_000); // 180 s: hub and cloud (processes or a pair), the line cut and restored: several sync rounds
  afterAll(() => {
    for (const s of servers) s.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const listen = async (server: net.Server) => {
    servers.push(server);
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    return `http://127.0.0.1:${(server.address() as net.AddressInfo).port}`;
  };

  function expectOneLine(r: { code: number; stderr: string }, url: string, what: RegExp) {
    expect(r.code).toBe(2);
    const lines = r.stderr.trim().split('\n');
    expect(lines, r.stderr).toHaveLength(1);
    expect(lines[0]).toContain(url);
    expect(lines[0]).toMatch(what);
    expect(r.stderr).not.toMatch(/\n\s+at /);
  }

  it('a cloud that accepts the connection and closes it', async () => {
    const url = await listen(net.createServer((s) => s.destroy()));
    expectOneLine(await link(dir, url), url, /closed it without answering — check/);
  });

  it('nothing listening at the address', async () => {
    const url = `http://127.0.0.1:${await freePort()}`;
    expectOneLine(await link(dir, url), url, /connection refused — check the address and port/);
  });

  it('a server that is not the comanda cloud, and a cloud that refuses the code', async () => {
    const notCloud = await listen(http.createServer((_q, s) => s.writeHead(404, { 'content-type': 'text/html' }).end('<h1>Not found</h1>')));
    expectOneLine(await link(dir, notCloud), notCloud, /without JSON — check that the URL points at the comanda cloud/);
    const refusing = await listen(
      http.createServer((_q, s) =>
        s.writeHead(401, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { code: 'sync_code_invalid', message: 'This link code is wrong, expired or already used.' } })),
      ),
    );
    expectOneLine(await link(dir, refusing), refusing, /refused the link \(401 sync_code_invalid\).*comanda sync invite/);
  });
});
