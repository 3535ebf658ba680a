import type { ComponentChildren } from 'preact';

/** A grid of large tap targets (menu items, categories, PIN keys): at least 44 px, readable at arm's length. */
export function TileGrid<T>({ items, label, keyOf, render, onPick, min = 140 }: {
  items: T[];
  label: string;
  keyOf: (t: T) => string;
  render: (t: T) => ComponentChildren;
  onPick: (t: T) => void;
  /** smallest tile width in px */
  min?: number;
}) {
  return (
    <ul class="tile-grid" aria-label={label} style={{ gridTemplateColumns: `repeat(auto-fill, minmax(${min}px, 1fr))` }}>
      {items.map((it) => (
        <li key={keyOf(it)}>
          <button type="button" class="tile" onClick={() => onPick(it)}>
            {render(it)}
          </button>
        </li>
      ))}
    </ul>
  );
}
