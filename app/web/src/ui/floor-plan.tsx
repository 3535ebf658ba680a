import { t } from '../lib/i18n.ts';

export type TableState = 'free' | 'soon' | 'seated' | 'order' | 'bill';
export interface PlanTable {
  id: string;
  number: number;
  capacity: number;
  zone: string | null;
}

/**
 * The floor drawn per zone: each table a shape sized by its seats, coloured by its state, with
 * its open check's total and age. Tables not placed yet are laid out in rows.
 */
export function FloorPlan({ tables, stateOf, detailOf, onPick }: {
  tables: PlanTable[];
  stateOf: (t: PlanTable) => TableState;
  detailOf: (t: PlanTable) => string | null;
  onPick: (t: PlanTable) => void;
}) {
  const zones = [...new Set(tables.map((tb) => tb.zone ?? ''))].sort();
  return (
    <div class="floor-plan">
      {zones.map((zone) => (
        <section key={zone} class="plan-zone" aria-label={zone || t('service.noZone')}>
          <h2>{zone || t('service.noZone')}</h2>
          <div class="plan-map">
            {tables
              .filter((tb) => (tb.zone ?? '') === zone)
              .sort((a, b) => a.number - b.number)
              .map((tb) => {
                const state = stateOf(tb);
                const detail = detailOf(tb);
                return (
                  <button
                    type="button"
                    key={tb.id}
                    data-table={tb.number}
                    class={`plan-table plan-${state} ${tb.capacity > 4 ? 'plan-long' : tb.capacity <= 2 ? 'plan-round' : ''}`}
                    onClick={() => onPick(tb)}
                  >
                    <span class="plan-no">{tb.number}</span>
                    <span class="plan-state">{t(`service.state.${state}`)}</span>
                    {detail ? <span class="plan-detail">{detail}</span> : null}
                  </button>
                );
              })}
          </div>
        </section>
      ))}
    </div>
  );
}
