import type Router from '@koa/router';
import { ApiError, ERROR_CODES } from '../errors.ts';
import { buildOpenApi } from './openapi.ts';
import type { RouteSpec } from './route.ts';

/**
 * `/docs`: the API reference as one HTML page rendered on the server from the OpenAPI
 * document, with its stylesheet served next to it. Nothing is fetched from elsewhere (the
 * hub is often offline, and the Content-Security-Policy forbids it anyway).
 */

type Schema = Record<string, any>;

const esc = (s: unknown) =>
  String(s).replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

const COMPONENT = '#/components/schemas/';
const anchor = (name: string) => `schema-${name}`;

/** A schema in a few words, linking named ones. */
function typeOf(s: Schema | undefined): string {
  if (!s || Object.keys(s).length === 0) return 'any';
  if (s.$ref) {
    const name = String(s.$ref).slice(COMPONENT.length);
    return `<a href="#${anchor(name)}">${esc(name)}</a>`;
  }
  if (s.const !== undefined) return `<code>${esc(JSON.stringify(s.const))}</code>`;
  if (s.enum) return s.enum.map((v: unknown) => `<code>${esc(JSON.stringify(v))}</code>`).join(' | ');
  if (s.anyOf || s.oneOf) return (s.anyOf ?? s.oneOf).map(typeOf).join(' | ');
  if (s.allOf) return s.allOf.map(typeOf).join(' &amp; ');
  const types: string[] = Array.isArray(s.type) ? s.type : s.type ? [s.type] : [];
  return (
    types
      .map((t) => {
        if (t === 'array') return `array of ${typeOf(s.items)}`;
        if (t === 'object' && s.properties) return 'object';
        if (t === 'object' && s.additionalProperties && typeof s.additionalProperties === 'object') {
          return `map of ${typeOf(s.additionalProperties)}`;
        }
        return esc(t);
      })
      .join(' | ') || 'any'
  );
}

function bounds(s: Schema): string {
  const b: string[] = [];
  if (s.minimum !== undefined && Math.abs(s.minimum) < Number.MAX_SAFE_INTEGER) b.push(`≥ ${s.minimum}`);
  if (s.maximum !== undefined && Math.abs(s.maximum) < Number.MAX_SAFE_INTEGER) b.push(`≤ ${s.maximum}`);
  if (s.minLength !== undefined) b.push(`min length ${s.minLength}`);
  if (s.maxLength !== undefined) b.push(`max length ${s.maxLength}`);
  if (s.maxItems !== undefined) b.push(`max ${s.maxItems} items`);
  if (s.format) b.push(esc(s.format));
  if (s.default !== undefined) b.push(`default <code>${esc(JSON.stringify(s.default))}</code>`);
  return b.join(', ');
}

/** An object's fields as a table (nested objects inline, one level deeper each). */
function fields(s: Schema | undefined, depth = 0): string {
  if (!s) return '';
  if (s.allOf) return s.allOf.map((x: Schema) => fields(x, depth)).join('');
  if (!s.properties || depth > 3) return '';
  const required = new Set<string>(s.required ?? []);
  const rows = Object.entries<Schema>(s.properties).map(([name, p]) => {
    const nested = p.type === 'object' || (Array.isArray(p.type) && p.type.includes('object')) ? fields(p, depth + 1) : '';
    const items = p.type === 'array' && p.items?.properties ? fields(p.items, depth + 1) : '';
    return `<tr><td><code>${esc(name)}</code>${required.has(name) ? '' : ' <span class="opt">optional</span>'}</td><td>${typeOf(p)}${
      bounds(p) ? ` <span class="bounds">${bounds(p)}</span>` : ''
    }${p.description ? `<div class="desc">${esc(p.description)}</div>` : ''}${nested}${items}</td></tr>`;
  });
  return `<table class="fields">${rows.join('')}</table>`;
}

function schemaBlock(s: Schema | undefined): string {
  if (!s) return '';
  return `<div class="schema">${s.properties || s.allOf ? fields(s) : typeOf(s)}</div>`;
}

/** An example as the reader copies it. */
function example(value: unknown): string {
  if (value === undefined) return '';
  return `<details class="example"><summary>Example</summary><pre><code>${esc(JSON.stringify(value, null, 2))}</code></pre></details>`;
}

function operation(path: string, method: string, op: any): string {
  const params = (op.parameters ?? []) as { name: string; in: string; required: boolean; schema: Schema }[];
  const paramRows = params
    .map(
      (p) =>
        `<tr><td><code>${esc(p.name)}</code>${p.required ? '' : ' <span class="opt">optional</span>'}</td><td>${esc(p.in)}</td><td>${typeOf(p.schema)}${
          bounds(p.schema ?? {}) ? ` <span class="bounds">${bounds(p.schema)}</span>` : ''
        }</td></tr>`,
    )
    .join('');
  const bodyMedia = op.requestBody?.content?.['application/json'];
  const body = bodyMedia?.schema;
  const responses = Object.entries<any>(op.responses)
    .map(([status, r]) => {
      const [type, media] = Object.entries<any>(r.content ?? {})[0] ?? [];
      const ok = status.startsWith('2');
      const shown = ok ? `${schemaBlock(media?.schema)}${example(media?.example)}` : '';
      return `<li><span class="status s${status[0]}">${esc(status)}</span> ${esc(r.description)}${type && ok && type !== 'application/json' ? ` <code>${esc(type)}</code>` : ''}${shown}</li>`;
    })
    .join('');
  return `<section class="op" id="${esc(op.operationId)}">
<h3><span class="method ${esc(method)}">${esc(method.toUpperCase())}</span> <code>${esc(path)}</code></h3>
<p>${esc(op.summary ?? '')}</p>
${op['x-scope'] ? `<p class="scope">Scope <code>${esc(op['x-scope'])}</code></p>` : op.security?.length ? '' : '<p class="scope">No key</p>'}
${paramRows ? `<h4>Parameters</h4><table class="params">${paramRows}</table>` : ''}
${body ? `<h4>Request body${op.requestBody.required ? '' : ' (optional)'}</h4>${schemaBlock(body)}${example(bodyMedia.example)}` : ''}
<h4>Responses</h4><ul class="responses">${responses}</ul>
</section>`;
}

/** One entry per error code: the anchor an error body's `doc_url` points at. */
function errorsSection(): string {
  const rows = ERROR_CODES.map((code) => {
    const e = new ApiError(code, '');
    return `<tr id="error-${esc(code)}"><td><code>${esc(code)}</code></td><td>${e.status}</td><td><code>${esc(e.type)}</code></td></tr>`;
  }).join('');
  return `<h2 id="errors">Errors</h2>
<p>Every refusal is the <a href="#${anchor('Error')}">one error body</a>: <code>code</code> is from this closed list and fixes the status. <code>request_id</code> names the request (also the <code>Request-Id</code> header of every answer, and the server's log line for it): quote it to support. <code>doc_url</code> points here.</p>
<table class="errors"><tr><th>code</th><th>status</th><th>type</th></tr>${rows}</table>`;
}

/** The deliveries a receiver gets, one per event type (the document's `webhooks`). */
function webhooksSection(doc: ReturnType<typeof buildOpenApi>): string {
  const hooks = Object.entries<Record<string, any>>(doc.webhooks).map(([type, { post }]) => {
    const media = post.requestBody.content['application/json'];
    return `<section class="op" id="${esc(post.operationId)}"><h3><span class="method post">POST</span> <code>${esc(type)}</code></h3><p>${esc(post.description)}</p>${schemaBlock(media.schema)}${example(media.example)}</section>`;
  });
  return `<h2 id="webhooks">Webhooks</h2>
<p>Signed as Standard Webhooks (<code>webhook-id</code>, <code>webhook-timestamp</code>, <code>webhook-signature</code>). Any 2xx acknowledges; 410 disables the endpoint; anything else is retried. Deliveries may arrive out of order after retries: order by the event's <code>created</code> and <code>id</code>, and de-duplicate on <code>webhook-id</code>.</p>
${hooks.join('\n')}`;
}

export function renderDocs(doc: ReturnType<typeof buildOpenApi>): string {
  const byTag = new Map<string, string[]>();
  const toc = new Map<string, string[]>();
  for (const [path, ops] of Object.entries<Record<string, any>>(doc.paths)) {
    for (const [method, op] of Object.entries<any>(ops)) {
      const tag = op.tags?.[0] ?? 'Other';
      byTag.set(tag, [...(byTag.get(tag) ?? []), operation(path, method, op)]);
      toc.set(tag, [...(toc.get(tag) ?? []), `<li><a href="#${esc(op.operationId)}"><span class="method ${esc(method)}">${esc(method.toUpperCase())}</span> ${esc(path)}</a></li>`]);
    }
  }
  const tags = [...byTag.keys()];
  const slug = (t: string) => `tag-${t.toLowerCase().replace(/[^a-z0-9]+/g, '-')}`;
  const components = Object.entries<Schema>(doc.components.schemas)
    .map(([name, s]) => `<section class="component" id="${anchor(name)}"><h3>${esc(name)}</h3>${s.description ? `<p>${esc(s.description)}</p>` : ''}${schemaBlock(s)}${example(s.examples?.[0])}</section>`)
    .join('\n');
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${esc(doc.info.title)} — API reference</title>
<link rel="stylesheet" href="/docs/assets/docs.css">
</head>
<body>
<nav>
<p class="brand">${esc(doc.info.title)}</p>
<p><a href="/v1/openapi.json">openapi.json</a> (OpenAPI ${esc(doc.openapi)})</p>
${tags.map((t) => `<details><summary><a href="#${slug(t)}">${esc(t)}</a></summary><ul>${toc.get(t)!.join('')}</ul></details>`).join('\n')}
<p><a href="#webhooks">Webhooks</a></p>
<p><a href="#errors">Errors</a></p>
<p><a href="#schemas">Schemas</a></p>
</nav>
<main>
<h1>${esc(doc.info.title)}</h1>
<p>Authenticate with <code>X-API-Key</code> (or <code>Authorization: Bearer</code> with the same key): a secret key (<code>sk_live_…</code>, <code>sk_test_…</code>) on <code>/v1</code>, a widget key (<code>wk_…</code>) on <code>/public/orders</code>; guest routes take none. Every error is <a href="#${anchor('Error')}">one body</a> whose <code>code</code> fixes the status.</p>
${tags.map((t) => `<h2 id="${slug(t)}">${esc(t)}</h2>\n${byTag.get(t)!.join('\n')}`).join('\n')}
${webhooksSection(doc)}
${errorsSection()}
<h2 id="schemas">Schemas</h2>
${components}
</main>
</body>
</html>`;
}

const CSS = `
*{box-sizing:border-box}
body{margin:0;font:15px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#1d2330;display:flex}
nav{position:sticky;top:0;height:100vh;overflow:auto;width:300px;flex:none;padding:16px;background:#f5f6f8;border-right:1px solid #dde1e6;font-size:13px}
nav ul{list-style:none;padding-left:8px;margin:4px 0}
nav a{color:#1d2330;text-decoration:none}
nav summary{cursor:pointer;font-weight:600;margin-top:6px}
.brand{font-weight:700;font-size:15px}
main{padding:24px 40px;max-width:1000px;min-width:0}
h2{border-bottom:2px solid #dde1e6;padding-bottom:4px;margin-top:48px}
.op,.component{border:1px solid #dde1e6;border-radius:6px;padding:8px 16px;margin:16px 0}
h3{margin:8px 0;font-size:16px}
h4{margin:12px 0 4px;font-size:13px;text-transform:uppercase;color:#5b6472}
code{font:13px ui-monospace,SFMono-Regular,Menlo,monospace;background:#f0f2f5;padding:1px 4px;border-radius:3px}
.method{display:inline-block;min-width:56px;text-align:center;font:700 11px ui-monospace,monospace;padding:2px 4px;border-radius:3px;color:#fff;background:#5b6472}
.method.get{background:#2f7d32}.method.post{background:#1f5fbf}.method.patch{background:#b26a00}.method.delete{background:#b3261e}.method.put{background:#6a3fb5}
table{border-collapse:collapse;width:100%;font-size:13px}
td{border-top:1px solid #e6e9ed;padding:4px 6px;vertical-align:top}
td table{margin-top:4px}
.opt{color:#8a93a0;font-size:11px}
.bounds{color:#5b6472;font-size:12px}
.desc{color:#5b6472}
.scope{font-size:13px;color:#5b6472}
.responses{list-style:none;padding:0}
.responses li{margin:4px 0}
.status{display:inline-block;min-width:40px;font:700 12px ui-monospace,monospace}
.example summary{cursor:pointer;font-size:12px;color:#5b6472}
.example pre{background:#f5f6f8;padding:8px;border-radius:4px;overflow:auto;max-height:400px;font-size:12px}
.errors tr:target{background:#fff6d6}
.status.s2{color:#2f7d32}.status.s4{color:#b26a00}.status.s5{color:#b3261e}
`;

/** Mounts `/docs` and its stylesheet; both are made once per process. */
export function mountDocs(router: Router, routes: readonly RouteSpec[]): void {
  let html: string | undefined;
  const headers = (ctx: any) => {
    ctx.set('Content-Security-Policy', "default-src 'none'; style-src 'self'; img-src 'self'; base-uri 'none'; form-action 'none'");
    ctx.set('X-Content-Type-Options', 'nosniff');
  };
  router.get('/docs', (ctx) => {
    html ??= renderDocs(buildOpenApi(routes));
    headers(ctx);
    ctx.type = 'text/html; charset=utf-8';
    ctx.body = html;
  });
  router.get('/docs/assets/docs.css', (ctx) => {
    headers(ctx);
    ctx.set('Cache-Control', 'public, max-age=3600');
    ctx.type = 'text/css; charset=utf-8';
    ctx.body = CSS;
  });
}
