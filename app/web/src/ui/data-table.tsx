import type { ComponentChildren } from 'preact';
import { t } from '../lib/i18n.ts';
import { Empty, Loading } from './kit.tsx';

// back office only

export interface Column<T> {
  label: string;
  cell: (row: T) => ComponentChildren;
  /** a figure: right-aligned */
  num?: boolean;
}

/**
 * The back office's list of records: a table with a heading per column and, when the reader may
 * change them, a last column of buttons (its heading is for screen readers only). Loading while
 * `rows` is undefined; `empty` when there are none.
 */
export function DataTable<T>({
  rows,
  columns,
  rowKey,
  rowClass,
  actions,
  empty,
  label,
  describedBy,
}: {
  rows: T[] | undefined;
  columns: Column<T>[];
  rowKey: (row: T) => string;
  rowClass?: (row: T) => string;
  actions?: ((row: T) => ComponentChildren) | null;
  empty?: string;
  /** names the table for screen readers where no heading right above does */
  label?: string;
  /** the id of a hint that explains the figures (aria-describedby) */
  describedBy?: string;
}) {
  if (!rows) return <Loading />;
  if (rows.length === 0) return empty ? <Empty>{empty}</Empty> : null;
  return (
    <div class="table-wrap">
      <table class="data" aria-label={label} aria-describedby={describedBy}>
        <thead>
          <tr>
            {columns.map((c) => (
              <th scope="col" key={c.label} class={c.num ? 'num' : undefined}>
                {c.label}
              </th>
            ))}
            {actions ? (
              <th scope="col">
                <span class="sr-only">{t('common.actions')}</span>
              </th>
            ) : null}
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => (
            <tr key={rowKey(r)} class={rowClass?.(r) || undefined}>
              {columns.map((c) => (
                <td key={c.label} class={c.num ? 'num' : undefined}>
                  {c.cell(r)}
                </td>
              ))}
              {actions ? (
                <td class="row-actions">
                  <div>{actions(r)}</div>
                </td>
              ) : null}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
