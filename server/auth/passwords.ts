import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';

const scryptAsync = (pw: string, salt: Buffer, len: number, opts: ScryptOptions) =>
  new Promise<Buffer>((resolve, reject) => scrypt(pw, salt, len, opts, (err, key) => (err ? reject(err) : resolve(key))));

// scrypt with N = 2^15, r = 8: 32 MiB and ~0.1 s per guess on the hub's hardware. The cost is
// written into each hash, so raising it later leaves older hashes readable.
const COST = { ln: 15, r: 8, p: 1 };
const maxmem = (ln: number, r: number) => 256 * r * 2 ** ln;

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const { ln, r, p } = COST;
  const hash = await scryptAsync(password, salt, 32, { N: 2 ** ln, r, p, maxmem: maxmem(ln, r) });
  return `scrypt$ln=${ln},r=${r},p=${p}$${salt.toString('base64')}$${hash.toString('base64')}`;
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const parts = stored.split('$');
  if (parts[0] !== 'scrypt') return false;
  // scrypt$salt$hash: the first hashes, made with Node's defaults (N = 2^14)
  let params = { ln: 14, r: 8, p: 1 };
  if (parts.length === 4) {
    const m = /^ln=(\d+),r=(\d+),p=(\d+)$/.exec(parts[1]);
    if (!m) return false;
    params = { ln: Number(m[1]), r: Number(m[2]), p: Number(m[3]) };
    if (params.ln > 20 || params.r > 32 || params.p > 4) return false;
  } else if (parts.length !== 3) return false;
  const [salt, hash] = parts.slice(-2);
  if (!salt || !hash) return false;
  const expected = Buffer.from(hash, 'base64');
  if (expected.length < 16) return false;
  const actual = await scryptAsync(password, Buffer.from(salt, 'base64'), expected.length, {
    N: 2 ** params.ln,
    r: params.r,
    p: params.p,
    maxmem: maxmem(params.ln, params.r),
  });
  return timingSafeEqual(expected, actual);
}
