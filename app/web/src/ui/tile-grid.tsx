import type { ComponentChildren, VNode } from 'preact';
import { useEffect, useMemo, useRef, useState } from 'preact/hooks';

/** One tile, as a component: the same tile drawn again (the same node) is skipped whole by Preact. */
function Tile({ pick, hidden, children }: { pick: () => void; hidden: boolean; children: ComponentChildren }) {
  return (
    <li hidden={hidden}>
      <button type="button" class="tile" onClick={pick}>
        {children}
      </button>
    </li>
  );
}

/**
 * A grid of large tap targets (menu items, categories, PIN keys): at least 44 px, readable at
 * arm's length. With `page`, only the first `page` tiles are drawn, and the next `page` each
 * time the end of the grid scrolls near the screen (or a keyboard user tabs there): a 500-item
 * menu on a cheap tablet then draws a screenful, not 500 tiles.
 * With `shows` (a search or a category over `items`), a tile once drawn stays in the page and
 * is hidden while it does not match: a keystroke then switches tiles on and off rather than
 * making and removing them. With a `render` that stays the same function (useCallback), each
 * item's tile is made once: a tile that stays as it was costs nothing on the next draw.
 */
export function TileGrid<T extends object>({ items, label, keyOf, render, onPick, min = 140, page, shows }: {
  items: T[];
  label: string;
  keyOf: (t: T) => string;
  render: (t: T) => ComponentChildren;
  onPick: (t: T) => void;
  /** smallest tile width in px */
  min?: number;
  /** draw this many tiles at first, then more as the grid is scrolled */
  page?: number;
  /** which of `items` to show (all when not given) */
  shows?: (t: T) => boolean;
}) {
  const matching = useMemo(() => (shows ? items.filter(shows) : items), [items, shows]);
  const [limit, setLimit] = useState(page ?? Infinity);
  const end = useRef<HTMLDivElement>(null);
  // a new list (another category, another search) starts again from its first screenful
  useEffect(() => setLimit(page ?? Infinity), [matching, page]);
  const more = page !== undefined && matching.length > limit;
  useEffect(() => {
    if (!more || !end.current) return;
    const seen = new IntersectionObserver((entries) => entries.some((e) => e.isIntersecting) && setLimit((n) => n + page!), { rootMargin: '400px' });
    seen.observe(end.current);
    return () => seen.disconnect();
  }, [more, limit]);
  const drawn = more ? matching.slice(0, limit) : matching;
  const pick = useRef(onPick);
  pick.current = onPick;
  // each item's tile shown and hidden, for as long as `render` is the same function; and, with
  // `shows`, the items whose tile is in the page (drawn once, kept while the list is the same)
  const tiles = useMemo(() => ({ shown: new WeakMap<T, VNode>(), hidden: new WeakMap<T, VNode>(), content: new WeakMap<T, ComponentChildren>(), made: new Set<T>() }), [render, items]);
  const tileOf = (it: T, hidden: boolean) => {
    const kept = hidden ? tiles.hidden : tiles.shown;
    let v = kept.get(it);
    if (!v) {
      let content = tiles.content.get(it);
      if (content === undefined) tiles.content.set(it, (content = render(it)));
      kept.set(it, (v = <Tile key={keyOf(it)} pick={() => pick.current(it)} hidden={hidden}>{content}</Tile>));
    }
    return v;
  };
  let children: VNode[];
  if (shows) {
    const on = new Set(drawn);
    for (const it of drawn) tiles.made.add(it);
    children = items.filter((it) => tiles.made.has(it)).map((it) => tileOf(it, !on.has(it)));
  } else children = drawn.map((it) => tileOf(it, false));
  return (
    <>
      <ul class="tile-grid" aria-label={label} data-total={matching.length} data-page={page} style={{ gridTemplateColumns: `repeat(auto-fill, minmax(${min}px, 1fr))` }}>
        {children}
      </ul>
      {more ? <div ref={end} class="tile-grid-end" /> : null}
    </>
  );
}
