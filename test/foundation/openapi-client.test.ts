import path from 'node:path';
import openapiTS, { astToString } from 'openapi-typescript';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { openApiDocument } from '../helpers/openapi-conformance.ts';

/**
 * A client generated from /v1/openapi.json the way an integrator makes one (openapi-typescript
 * for the types, openapi-fetch for the calls), compiled strict (issue 43, "done when"): the
 * webhook payloads, the query's numbers and the error codes are typed. Each `@ts-expect-error`
 * below is a misuse the types must refuse; if one compiles, TypeScript reports the directive
 * unused and the test fails.
 */
const USE = `
import createClient from 'openapi-fetch';
import type { components, paths, webhooks } from './api';

const client = createClient<paths>({ baseUrl: 'http://127.0.0.1:8080' });

export async function orders(): Promise<number> {
  const { data, error } = await client.GET('/v1/orders', { params: { query: { limit: 20 } } });
  if (error) {
    // the error body, narrowed to the codes this route documents
    const code: 'parameter_invalid' | 'parameter_unknown' | 'parameter_missing' | 'invalid_cursor' | components['schemas']['Error']['error']['code'] = error.error.code;
    return code.length;
  }
  const total: number = data.data[0].total;
  const more: boolean = data.has_more;
  // @ts-expect-error limit is a number, not text
  await client.GET('/v1/orders', { params: { query: { limit: '20' } } });
  // @ts-expect-error no such route
  await client.GET('/v1/nothing-here');
  return more ? total : 0;
}

type Delivery<T extends keyof webhooks> = NonNullable<webhooks[T]['post']['requestBody']>['content']['application/json'];

export function onOrderCreated(event: Delivery<'order.created'>): number {
  const type: 'order.created' = event.type;
  const created: number = event.created;
  // the object under data.object is the order, typed
  return event.data.object.total + created + type.length;
}

export function onPayment(event: Delivery<'payment.succeeded'>): string {
  // @ts-expect-error a payment's event carries a payment, which has no order lines
  return event.data.object.items;
}

// @ts-expect-error an event type the hub does not send has no webhook
export type Nope = webhooks['nonexistent.event'];

// @ts-expect-error error codes are a closed list
export const bogus: components['schemas']['Error']['error']['code'] = 'no_such_code';
`;

describe('a client generated from the OpenAPI document', () => {
  it('compiles strict, with typed webhook payloads, query numbers and errors', async () => {
    const doc = openApiDocument();
    const types = astToString(await openapiTS(doc as never, { exportType: true }));
    // virtual files beside this one, so `openapi-fetch` resolves from the repository's node_modules
    const dir = path.join(import.meta.dirname, '.generated-client');
    const files = new Map([
      [path.join(dir, 'api.ts'), types],
      [path.join(dir, 'use.ts'), USE],
    ]);
    const options: ts.CompilerOptions = {
      strict: true,
      noEmit: true,
      target: ts.ScriptTarget.ES2022,
      module: ts.ModuleKind.ESNext,
      moduleResolution: ts.ModuleResolutionKind.Bundler,
      skipLibCheck: true,
      types: [],
    };
    const host = ts.createCompilerHost(options);
    const { getSourceFile, fileExists, readFile, directoryExists } = host;
    host.directoryExists = (d) => d === dir || (directoryExists?.(d) ?? true);
    host.fileExists = (f) => files.has(f) || fileExists(f);
    host.readFile = (f) => files.get(f) ?? readFile(f);
    host.getSourceFile = (f, lang, ...rest) => (files.has(f) ? ts.createSourceFile(f, files.get(f)!, lang) : getSourceFile(f, lang, ...rest));
    const program = ts.createProgram([path.join(dir, 'use.ts')], options, host);
    const problems = ts.getPreEmitDiagnostics(program).map((d) => `${d.file ? path.basename(d.file.fileName) + ':' + (d.file.getLineAndCharacterOfPosition(d.start ?? 0).line + 1) : ''} ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`);
    expect(problems).toEqual([]);
  });
});
