import Router from '@koa/router';
import { describe, expect, it } from 'vitest';
import { keepRouteMatches } from '../../server/http/route-matches.ts';

/** A router with a few routes, and how many times its routes' regexps were tried. */
function counted() {
  const router = new Router();
  router.get('/v1/orders', () => {});
  router.post('/v1/orders', () => {});
  router.get('/v1/orders/:id', () => {});
  const plain = new Router();
  for (const l of router.stack) plain[l.methods.includes('POST') ? 'post' : 'get'](l.path as string, () => {});
  let tried = 0;
  const count = () => {
    for (const layer of router.stack) {
      const test = layer.match.bind(layer);
      layer.match = (p: string) => (tried++, test(p));
    }
  };
  count();
  keepRouteMatches(router);
  return { router, plain, tried: () => tried, count };
}

const shape = (m: ReturnType<Router['match']>) => ({ path: m.path.map((l) => l.path), pathAndMethod: m.pathAndMethod.map((l) => l.path), route: m.route });

describe("the router's matches, kept per method and path", () => {
  it('answers as the router does, trying its routes once per method and path', () => {
    const { router, plain, tried } = counted();
    for (const [path, method] of [['/v1/orders', 'POST'], ['/v1/orders', 'GET'], ['/v1/orders/ord_1', 'GET'], ['/v1/orders/ord_1', 'POST'], ['/nope', 'GET']] as const) {
      expect(shape(router.match(path, method))).toEqual(shape(plain.match(path, method)));
    }
    const once = tried();
    expect(once).toBe(5 * 3);
    router.match('/v1/orders', 'POST');
    router.match('/v1/orders/ord_1', 'GET');
    expect(tried()).toBe(once);
  });

  it('gives each request arrays of its own, and sees a route added later', () => {
    const { router, count } = counted();
    const first = router.match('/v1/orders/ord_1', 'GET');
    first.path.push(first.path[0]);
    expect(router.match('/v1/orders/ord_1', 'GET').path).toHaveLength(1);
    expect(router.match('/v1/orders/ord_1/void', 'POST').route).toBe(false);
    router.post('/v1/orders/:id/void', () => {});
    count();
    expect(router.match('/v1/orders/ord_1/void', 'POST').route).toBe(true);
  });
});
