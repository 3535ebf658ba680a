import type Router from '@koa/router';

type Match = ReturnType<Router['match']>;

/** More distinct method-and-path pairs than this (ids in paths, probes) and the kept ones are dropped. */
const MAX_KEPT = 2_000;

/**
 * Keeps the router's answer per method and path. @koa/router tests every route's regexp
 * against every request (about two hundred: 28 µs of an order's CPU, more than all of its
 * body reading and validation), and the answer depends on nothing else. A route added later
 * (a feature's, at start) drops what was kept. Each request gets its own arrays: the router
 * keeps `path` as the context's `matched`, which a second router would push onto.
 */
export function keepRouteMatches(router: Router): void {
  const match = router.match.bind(router);
  const kept = new Map<string, Match>();
  let routes = router.stack.length;
  router.match = (path: string, method: string): Match => {
    if (router.stack.length !== routes || kept.size >= MAX_KEPT) {
      kept.clear();
      routes = router.stack.length;
    }
    const key = `${method} ${path}`;
    let m = kept.get(key);
    if (m === undefined) kept.set(key, (m = match(path, method)));
    return { path: [...m.path], pathAndMethod: [...m.pathAndMethod], route: m.route };
  };
}
