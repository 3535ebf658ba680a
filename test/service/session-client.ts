/** A browser-like client: keeps the cookies it is given and echoes the CSRF cookie as the page does. */
export class SessionClient {
  cookies = new Map<string, string>();
  constructor(
    readonly url: string,
    readonly headers: Record<string, string> = {},
  ) {}
  get csrf() {
    return this.cookies.get('comanda_csrf') ?? '';
  }
  async request(method: string, path: string, body?: unknown, opts: { headers?: Record<string, string> } = {}) {
    const headers: Record<string, string> = { ...this.headers, ...opts.headers };
    if (this.cookies.size) headers.cookie = [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    if (method !== 'GET') headers['x-csrf-token'] = this.csrf;
    if (body !== undefined) headers['content-type'] = 'application/json';
    const res = await fetch(this.url + path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    for (const c of res.headers.getSetCookie()) {
      const [pair, ...attrs] = c.split(';');
      const [k, v] = pair.split('=');
      if (/max-age=0|expires=Thu, 01 Jan 1970/i.test(attrs.join(';')) || v === '') this.cookies.delete(k);
      else this.cookies.set(k, v);
    }
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : null };
  }
}
