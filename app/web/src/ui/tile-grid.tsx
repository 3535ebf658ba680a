import type { ComponentChildren, VNode } from 'preact';
import { useEffect, useMemo, useRef, useState } from 'preact/hooks';

/** One tile, as a component: the same tile drawn again (the same node) is skipped whole by Preact. */
function Tile({ pick, off, children }: { pick: () => void; off?: boolean; children: ComponentChildren }) {
  return (
    <li>
      <button type="button" class="tile" disabled={off} onClick={pick}>
        {children}
      </button>
    </li>
  );
}

/**
 * A grid of large tap targets (menu items, categories, PIN keys): at least 44 px, readable at
 * arm's length. With `page`, only the first `page` tiles are drawn, and the next `page` each
 * time the end of the grid scrolls near the screen (or a keyboard user tabs there): a 500-item
 * menu on a cheap tablet then redraws a screenful on each keystroke of a search, not 500 tiles.
 * With a `render` that stays the same function (useCallback), each item's tile is made once:
 * a tile still shown after a keystroke costs nothing, only the tiles that come in are drawn.
 */
export function TileGrid<T extends object>({ items, label, keyOf, render, onPick, min = 140, page, disabled }: {
  items: T[];
  label: string;
  keyOf: (t: T) => string;
  render: (t: T) => ComponentChildren;
  onPick: (t: T) => void;
  /** smallest tile width in px */
  min?: number;
  /** draw this many tiles at first, then more as the grid is scrolled */
  page?: number;
  /** tiles shown but not to be picked (a dish 86'd); keep it the same function, like `render` */
  disabled?: (t: T) => boolean;
}) {
  const [limit, setLimit] = useState(page ?? Infinity);
  const end = useRef<HTMLDivElement>(null);
  // a new list (another category, another search) starts again from its first screenful
  useEffect(() => setLimit(page ?? Infinity), [items, page]);
  const more = page !== undefined && items.length > limit;
  useEffect(() => {
    if (!more || !end.current) return;
    const seen = new IntersectionObserver((entries) => entries.some((e) => e.isIntersecting) && setLimit((n) => n + page!), { rootMargin: '400px' });
    seen.observe(end.current);
    return () => seen.disconnect();
  }, [more, limit]);
  const shown = more ? items.slice(0, limit) : items;
  const pick = useRef(onPick);
  pick.current = onPick;
  // each item's tile, for as long as `render` is the same function
  const tiles = useMemo(() => new WeakMap<T, VNode>(), [render, disabled]);
  const tileOf = (it: T) => {
    let v = tiles.get(it);
    if (!v) tiles.set(it, (v = <Tile key={keyOf(it)} off={disabled?.(it)} pick={() => pick.current(it)}>{render(it)}</Tile>));
    return v;
  };
  return (
    <>
      <ul class="tile-grid" aria-label={label} data-total={items.length} data-page={page} style={{ gridTemplateColumns: `repeat(auto-fill, minmax(${min}px, 1fr))` }}>
        {shown.map(tileOf)}
      </ul>
      {more ? <div ref={end} class="tile-grid-end" /> : null}
    </>
  );
}
