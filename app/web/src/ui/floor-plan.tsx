import type { ComponentChildren } from 'preact';
import { useId, useRef } from 'preact/hooks';
import { t } from '../lib/i18n.ts';

export type TableState = 'free' | 'soon' | 'seated' | 'order' | 'bill';
export interface PlanTable {
  id: string;
  number: number;
  capacity: number;
  zone: string | null;
  /** where it is drawn, in plan units (0–1000 across and down its zone); null: not placed yet */
  plan_x?: number | null;
  plan_y?: number | null;
  plan_width?: number | null;
  plan_height?: number | null;
  shape?: 'square' | 'round' | 'rect' | null;
}

/** The plan's unit square: a zone is 1000 × 1000, drawn as a square scaled to the screen. */
export const PLAN_SIZE = 1000;
const GAP = 30;
/** the width of one of the four places in a row of tables not placed yet */
const CELL = Math.floor((PLAN_SIZE - GAP) / 4);

/** A table's box on the plan: its own, or a place in rows by number while it has none. */
export function boxOf(tb: PlanTable, order: number): { x: number; y: number; w: number; h: number; shape: 'square' | 'round' | 'rect' } {
  const shape = tb.shape ?? (tb.capacity > 4 ? 'rect' : tb.capacity <= 2 ? 'round' : 'square');
  const w = tb.plan_width ?? (shape === 'rect' ? CELL - GAP : 170);
  const h = tb.plan_height ?? 170;
  if (tb.plan_x != null && tb.plan_y != null) return { x: tb.plan_x, y: tb.plan_y, w, h, shape };
  // not placed yet: four to a row, in number order, each inside the plan (the fourth too)
  return { x: Math.round(GAP + (order % 4) * CELL), y: GAP + Math.floor(order / 4) * (170 + GAP), w, h, shape };
}

export type Box = ReturnType<typeof boxOf>;

/** Two boxes share floor (touching edges do not). */
export const overlaps = (a: Box, b: Box) => a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h;

/**
 * Every table of one zone with its box. A placed table stands where it was put; one not placed
 * yet takes its place in the rows by number, or the next place that no table covers (a placed
 * table drawn over an unplaced one hid it).
 */
export function layoutZone<T extends PlanTable>(tables: T[]): { tb: T; box: Box }[] {
  const mine = [...tables].sort((a, b) => a.number - b.number);
  const taken = mine.filter((tb) => tb.plan_x != null && tb.plan_y != null).map((tb) => boxOf(tb, 0));
  return mine.map((tb, i) => {
    if (tb.plan_x != null && tb.plan_y != null) return { tb, box: boxOf(tb, i) };
    let slot = i;
    let box = boxOf(tb, slot);
    while (taken.some((o) => overlaps(o, box)) && slot < i + 200) box = boxOf(tb, ++slot);
    taken.push(box);
    return { tb, box };
  });
}

/** The tables (by number) of one zone whose boxes overlap another's, as the plan draws them. */
export function overlapping<T extends PlanTable>(tables: T[]): number[][] {
  const pairs: number[][] = [];
  for (const zone of new Set(tables.map((tb) => tb.zone ?? ''))) {
    const boxes = layoutZone(tables.filter((tb) => (tb.zone ?? '') === zone));
    boxes.forEach((a, i) => boxes.slice(i + 1).forEach((b) => overlaps(a.box, b.box) && pairs.push([a.tb.number, b.tb.number])));
  }
  return pairs;
}

const clamp = (v: number, max: number) => Math.round(Math.min(Math.max(0, v), max));

/**
 * The floor drawn per zone: each table a shape where it stands, coloured by its state, with
 * its open check's total and age. The service page, the floor screen and the back office's
 * editor draw the same plan. With `onMove` the tables are dragged (mouse, finger or pen) or
 * moved with the arrow keys (Shift: larger steps), for people who do not drag.
 */
export function FloorPlan<T extends PlanTable>({ tables, stateOf, stateLabel = (s) => t(`service.state.${s}`), detailOf, onPick, onMove, warned = [] }: {
  tables: T[];
  /** tables drawn with a warning (the editor's overlapping ones), by number */
  warned?: number[];
  stateOf: (t: T) => TableState;
  stateLabel?: (s: TableState) => string;
  detailOf: (t: T) => ComponentChildren;
  onPick?: (t: T) => void;
  onMove?: (t: T, x: number, y: number) => void;
}) {
  const zones = [...new Set(tables.map((tb) => tb.zone ?? ''))].sort();
  const drag = useRef<{ id: string; px: number; py: number; x: number; y: number; scale: number } | null>(null);
  const howTo = useId();
  return (
    <div class={`floor-plan ${onMove ? 'plan-editing' : ''}`}>
      {onMove ? <p id={howTo} class="sr-only">{t('plan.moveHelp')}</p> : null}
      {zones.map((zone) => {
        const boxes = layoutZone(tables.filter((tb) => (tb.zone ?? '') === zone));
        // room below the lowest table to drag one further down while arranging
        const bottom = Math.max(onMove ? 600 : 0, ...boxes.map(({ box }) => box.y + box.h + GAP));
        return (
          <section key={zone} class="plan-zone" aria-label={zone || t('service.noZone')}>
            <h2>{zone || t('service.noZone')}</h2>
            {/* as tall as its lowest table: a zone of one row is not a square of empty floor */}
            <div class="plan-map" style={{ aspectRatio: `${PLAN_SIZE} / ${Math.min(PLAN_SIZE, bottom)}` }}>
              {boxes.map(({ tb, box }) => {
                const state = stateOf(tb);
                const detail = detailOf(tb);
                const move = (x: number, y: number) => onMove!(tb, clamp(x, PLAN_SIZE - box.w), clamp(y, PLAN_SIZE - box.h));
                return (
                  <button
                    type="button"
                    key={tb.id}
                    data-table={tb.number}
                    data-x={box.x}
                    data-y={box.y}
                    class={`plan-table plan-${state} plan-${box.shape}${warned.includes(tb.number) ? ' plan-overlap' : ''}`}
                    data-w={box.w}
                    data-h={box.h}
                    style={{ left: `${(box.x / PLAN_SIZE) * 100}%`, top: `${(box.y / Math.min(PLAN_SIZE, bottom)) * 100}%`, width: `${(box.w / PLAN_SIZE) * 100}%`, height: `${(box.h / Math.min(PLAN_SIZE, bottom)) * 100}%` }}
                    aria-describedby={onMove ? howTo : undefined}
                    aria-keyshortcuts={onMove ? 'ArrowUp ArrowDown ArrowLeft ArrowRight' : undefined}
                    onClick={onPick ? () => onPick(tb) : undefined}
                    onKeyDown={
                      onMove
                        ? (e) => {
                            const step = e.shiftKey ? 50 : 10;
                            const d = { ArrowLeft: [-step, 0], ArrowRight: [step, 0], ArrowUp: [0, -step], ArrowDown: [0, step] }[e.key];
                            if (!d) return;
                            e.preventDefault();
                            move(box.x + d[0]!, box.y + d[1]!);
                          }
                        : undefined
                    }
                    onPointerDown={
                      onMove
                        ? (e) => {
                            const map = (e.currentTarget as HTMLElement).parentElement!.getBoundingClientRect();
                            (e.currentTarget as HTMLElement).setPointerCapture(e.pointerId);
                            drag.current = { id: tb.id, px: e.clientX, py: e.clientY, x: box.x, y: box.y, scale: PLAN_SIZE / map.width };
                          }
                        : undefined
                    }
                    onPointerMove={
                      onMove
                        ? (e) => {
                            const d = drag.current;
                            if (d?.id !== tb.id) return;
                            move(d.x + (e.clientX - d.px) * d.scale, d.y + (e.clientY - d.py) * d.scale);
                          }
                        : undefined
                    }
                    onPointerUp={onMove ? () => (drag.current = null) : undefined}
                  >
                    <span class="plan-no">
                      <span class="sr-only">{t('plan.table')} </span>
                      {tb.number}
                    </span>
                    <span class="plan-state">{stateLabel(state)}</span>
                    {detail ? <span class="plan-detail">{detail}</span> : null}
                  </button>
                );
              })}
            </div>
          </section>
        );
      })}
    </div>
  );
}
