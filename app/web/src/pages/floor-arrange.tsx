import { useState } from 'preact/hooks';
import { patchChanged } from '../lib/api.ts';
import { t } from '../lib/i18n.ts';
import type { Table } from '../lib/types.ts';
import { FloorPlan } from '../ui/floor-plan.tsx';
import { Button, ErrorNote, useAction } from '../ui/kit.tsx';

/**
 * The floor plan editor: the same plan the service tablets and the floor screen draw, with the
 * tables draggable and arrow-key movable. Save writes only the tables that moved (each its
 * plan_x and plan_y); a table never placed gets the place it was shown at once it is moved.
 */
export function ArrangePlan({ tables, onDone }: { tables: Table[]; onDone: (saved: boolean) => Promise<void> | void }) {
  const [placed, setPlaced] = useState<Table[]>(tables);
  const [act, busy, error] = useAction();
  const moved = placed.filter((p) => {
    const before = tables.find((x) => x.id === p.id)!;
    return p.plan_x !== before.plan_x || p.plan_y !== before.plan_y;
  });
  const save = () =>
    act(async () => {
      for (const p of moved) {
        const before = tables.find((x) => x.id === p.id)!;
        await patchChanged(`/v1/tables/${p.id}`, { plan_x: p.plan_x, plan_y: p.plan_y }, { plan_x: before.plan_x, plan_y: before.plan_y });
      }
      await onDone(true);
    });
  return (
    <section class="plan-arrange" aria-label={t('plan.arrange')}>
      <p class="hint">{t('plan.hint')}</p>
      <div class="page-actions">
        <Button variant="primary" disabled={busy || moved.length === 0} onClick={save}>
          {t('plan.save')}
        </Button>
        <Button onClick={() => onDone(false)}>{t('common.cancel')}</Button>
      </div>
      <ErrorNote error={error} />
      <FloorPlan
        tables={placed}
        stateOf={() => 'free'}
        stateLabel={() => ''}
        detailOf={(tb) => t('plan.seats', { n: tb.capacity })}
        onMove={(tb, x, y) => setPlaced((all) => all.map((p) => (p.id === tb.id ? { ...p, plan_x: x, plan_y: y } : p)))}
      />
    </section>
  );
}

