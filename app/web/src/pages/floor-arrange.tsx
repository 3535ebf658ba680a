import { useState } from 'preact/hooks';
import { patchChanged } from '../lib/client.ts';
import { t } from '../lib/i18n.ts';
import type { Table } from '../lib/types.ts';
import { boxOf, FloorPlan } from '../ui/floor-plan.tsx';
import { Button, ErrorNote, Field, SelectField, useAction } from '../ui/kit.tsx';

/** what the editor changes of a table: where it stands, its shape and its seats */
const KEYS = ['plan_x', 'plan_y', 'shape', 'capacity', 'min_capacity'] as const;
const SHAPES = ['round', 'square', 'rect'] as const;

/**
 * The floor plan editor: the same plan the service tablets and the floor screen draw, with the
 * tables draggable and arrow-key movable. Choosing a table (a tap, or Enter on it) opens its
 * shape and seats beside the plan. Save writes only what changed of each table; a table never
 * placed gets the place it was shown at once it is moved.
 */
export function ArrangePlan({ tables, onDone }: { tables: Table[]; onDone: (saved: boolean) => Promise<void> | void }) {
  const [placed, setPlaced] = useState<Table[]>(tables);
  const [picked, setPicked] = useState<string | null>(null);
  const [act, busy, error] = useAction();
  const fieldsOf = (o: Table) => Object.fromEntries(KEYS.map((k) => [k, o[k] ?? null]));
  const changed = placed.filter((p) => {
    const before = tables.find((x) => x.id === p.id)!;
    return KEYS.some((k) => (p[k] ?? null) !== (before[k] ?? null));
  });
  const edit = (id: string, patch: Partial<Table>) => setPlaced((all) => all.map((p) => (p.id === id ? { ...p, ...patch } : p)));
  const save = () =>
    act(async () => {
      for (const p of changed) {
        const before = tables.find((x) => x.id === p.id)!;
        await patchChanged('/v1/tables/{id}', { path: { id: p.id } }, fieldsOf(p), fieldsOf(before));
      }
      await onDone(true);
    });
  const current = placed.find((p) => p.id === picked);
  const seats = current ? String(current.capacity) : '';
  return (
    <section class="plan-arrange" aria-label={t('plan.arrange')}>
      <p class="hint">{t('plan.hint')}</p>
      <div class="page-actions">
        <Button variant="primary" disabled={busy || changed.length === 0} onClick={save}>
          {t('plan.save')}
        </Button>
        <Button onClick={() => onDone(false)}>{t('common.cancel')}</Button>
      </div>
      <ErrorNote error={error} />
      <div class="plan-table-form" role="group" aria-label={current ? t('plan.editing', { n: current.number }) : t('plan.pick')}>
        {current ? (
          <>
            <h2>{t('plan.editing', { n: current.number })}</h2>
            <SelectField
              label={t('plan.shape')}
              value={boxOf(current, 0).shape}
              options={SHAPES.map((s) => ({ value: s, label: t(`plan.shape.${s}`) }))}
              onChange={(v) => edit(current.id, { shape: v as Table['shape'] })}
            />
            <Field
              label={t('plan.seatCount')}
              type="number"
              min={1}
              max={100}
              inputMode="numeric"
              value={seats}
              onInput={(e) => {
                const n = Number((e.target as HTMLInputElement).value);
                // the smallest party it takes never above its seats
                if (Number.isInteger(n) && n >= 1 && n <= 100) edit(current.id, { capacity: n, min_capacity: current.min_capacity == null ? null : Math.min(current.min_capacity, n) });
              }}
            />
          </>
        ) : (
          <p class="hint">{t('plan.pick')}</p>
        )}
      </div>
      <FloorPlan
        tables={placed}
        stateOf={() => 'free'}
        stateLabel={() => ''}
        detailOf={(tb) => t('plan.seats', { n: tb.capacity })}
        onPick={(tb) => setPicked(tb.id)}
        onMove={(tb, x, y) => edit(tb.id, { plan_x: x, plan_y: y })}
      />
    </section>
  );
}
