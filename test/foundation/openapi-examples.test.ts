import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import { openApiDocument } from '../helpers/openapi-conformance.ts';

/**
 * Every example of the document (server/http/openapi-examples.ts: made from the schemas and
 * their fixture values) is valid against the schema it illustrates: a generated client or a
 * mock server fed with them gets what the API would answer or accept.
 */
describe('the OpenAPI examples', () => {
  const doc = openApiDocument();
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  (addFormats as unknown as (a: Ajv2020) => void)(ajv);
  ajv.addSchema({ ...doc, $id: 'https://comanda.invalid/openapi.json' });
  const check = (pointer: string, example: unknown) => {
    const validate = ajv.getSchema(`https://comanda.invalid/openapi.json#${pointer}`)!;
    return validate(example) ? null : `${pointer}: ${JSON.stringify(validate.errors?.slice(0, 3))} in ${JSON.stringify(example).slice(0, 300)}`;
  };
  const esc = (p: string) => p.replace(/~/g, '~0').replace(/\//g, '~1');

  it('has one for every request body and success answer, valid against its schema', () => {
    const wrong: string[] = [];
    let n = 0;
    for (const [section, entries] of [['paths', doc.paths], ['webhooks', doc.webhooks]] as const) {
      for (const [path, ops] of Object.entries<Record<string, any>>(entries)) {
        for (const [method, op] of Object.entries<any>(ops)) {
          const at = `/${section}/${esc(path)}/${method}`;
          const body = op.requestBody?.content?.['application/json'];
          if (body) {
            n++;
            if (body.example === undefined) wrong.push(`${at}: no request example`);
            else wrong.push(check(`${at}/requestBody/content/application~1json/schema`, body.example) ?? '');
          }
          for (const [status, r] of Object.entries<any>(op.responses)) {
            const media = r.content?.['application/json'];
            if (!media || !status.startsWith('2')) continue;
            n++;
            if (media.example === undefined) wrong.push(`${at} ${status}: no example`);
            else wrong.push(check(`${at}/responses/${status}/content/application~1json/schema`, media.example) ?? '');
          }
        }
      }
    }
    expect(n).toBeGreaterThan(150);
    expect(wrong.filter(Boolean)).toEqual([]);
  });

  it('has one for every component schema, valid against it', () => {
    const wrong = Object.entries<any>(doc.components.schemas).map(([id, s]) =>
      s.examples?.length === 1 ? check(`/components/schemas/${id}`, s.examples[0]) : `${id}: no example`,
    );
    expect(wrong.filter(Boolean)).toEqual([]);
  });

  it("gives each object an id of its own kind, as the API does (an event's evt_, a menu item's mi_)", () => {
    const delivery = doc.webhooks['order.created'].post.requestBody.content['application/json'].example;
    expect(delivery.id).toMatch(/^evt_/);
    expect(delivery.data.object.id).toMatch(/^ord_/);
    expect(delivery.data.object.items[0].id).toMatch(/^oi_/);
    expect(doc.components.schemas.MenuItem.examples[0].id).toMatch(/^mi_/);
    expect(doc.components.schemas.WebhookEndpoint.examples[0].id).toMatch(/^we_/);
  });
});
