import { createConfig, lintFromString } from '@redocly/openapi-core';
import { describe, expect, it } from 'vitest';
import { openApiDocument } from '../helpers/openapi-conformance.ts';

/**
 * Redocly's recommended rules on the document an integrator downloads (issue 43, "done when"):
 * the same rule set as `redocly lint --extends recommended`, through the CLI's own engine.
 */
describe("Redocly's recommended rules", () => {
  const lint = async (doc: unknown) => {
    const config = await createConfig({ extends: ['recommended'] });
    const problems = await lintFromString({ source: JSON.stringify(doc), absoluteRef: 'openapi.json', config });
    return problems.map((p) => `${p.severity} ${p.ruleId}: ${p.message} at ${p.location[0]?.pointer}`);
  };

  it('pass on /v1/openapi.json with no error and no warning', async () => {
    expect(await lint(openApiDocument())).toEqual([]);
  });

  it('are really applied: a keyless operation without its `security: []` and a doubled operation id are reported', async () => {
    const doc = structuredClone(openApiDocument()) as { paths: Record<string, Record<string, { operationId?: string; security?: unknown }>> };
    const health = doc.paths['/health'].get;
    delete health.security;
    doc.paths['/v1/orders'].get.operationId = doc.paths['/v1/orders'].post.operationId;
    const problems = await lint(doc);
    expect(problems.some((p) => p.includes('operation-operationId-unique'))).toBe(true);
    expect(problems.some((p) => p.includes('security-defined') && p.includes('#/paths/~1health/get'))).toBe(true);
  });
});
