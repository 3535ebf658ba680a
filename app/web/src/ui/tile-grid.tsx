import type { ComponentChildren } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';

/**
 * A grid of large tap targets (menu items, categories, PIN keys): at least 44 px, readable at
 * arm's length. With `page`, only the first `page` tiles are drawn, and the next `page` each
 * time the end of the grid scrolls near the screen (or a keyboard user tabs there): a 500-item
 * menu on a cheap tablet then redraws a screenful on each keystroke of a search, not 500 tiles.
 */
export function TileGrid<T>({ items, label, keyOf, render, onPick, min = 140, page }: {
  items: T[];
  label: string;
  keyOf: (t: T) => string;
  render: (t: T) => ComponentChildren;
  onPick: (t: T) => void;
  /** smallest tile width in px */
  min?: number;
  /** draw this many tiles at first, then more as the grid is scrolled */
  page?: number;
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
  return (
    <>
      <ul class="tile-grid" aria-label={label} data-total={items.length} style={{ gridTemplateColumns: `repeat(auto-fill, minmax(${min}px, 1fr))` }}>
        {shown.map((it) => (
          <li key={keyOf(it)}>
            <button type="button" class="tile" onClick={() => onPick(it)}>
              {render(it)}
            </button>
          </li>
        ))}
      </ul>
      {more ? <div ref={end} class="tile-grid-end" /> : null}
    </>
  );
}
