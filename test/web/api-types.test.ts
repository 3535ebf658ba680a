import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { API_TYPES_FILE, apiTypes } from '../../app/web/api-types.ts';

describe("the back office's API types", () => {
  it('are generated from the presenters as they are now (run `node --import tsx app/web/api-types.ts` after changing one)', async () => {
    const fresh = await apiTypes();
    expect(fresh).toContain('Order: {');
    expect(fs.readFileSync(API_TYPES_FILE, 'utf8') === fresh, `${API_TYPES_FILE} is stale`).toBe(true);
  });
});
