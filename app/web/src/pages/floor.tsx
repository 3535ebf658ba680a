import QRCode from 'qrcode';
import { useEffect, useState } from 'preact/hooks';
import { DELETE, POST, getAll, patchChanged } from '../lib/client.ts';
import { t } from '../lib/i18n.ts';
import { can, session } from '../lib/session.ts';
import type { Table } from '../lib/types.ts';
import { Badge, Button, Empty, ErrorNote, Field, Loading, PageHeader, useAction, useLoad } from '../ui/kit.tsx';
import { DataTable } from '../ui/data-table.tsx';
import { FormDialog } from '../ui/form-dialog.tsx';
import { ArrangePlan } from './floor-arrange.tsx';

interface QrCode {
  id: string;
  token: string;
  url: string;
  table: string | null;
  is_active: boolean;
}

async function loadFloor() {
  const [tables, codes] = await Promise.all([getAll('/v1/tables'), getAll('/v1/qr_codes', { query: { is_active: true } }).catch(() => [] as QrCode[])]);
  return { tables: tables.sort((a, b) => a.number - b.number), codes };
}

/** Tables by zone, with the QR code each one's guests order from. */
export function FloorPage() {
  const [floor, error, reload] = useLoad(loadFloor);
  const [editing, setEditing] = useState<Table | 'new' | null>(null);
  const [act, busy, actError] = useAction();
  const [arranging, setArranging] = useState(false);
  const [saved, setSaved] = useState(false);
  const writable = can('tables:write');
  if (!floor) return error ? <ErrorNote error={error} /> : <Loading />;
  if (arranging) {
    return (
      <>
        <PageHeader title={t('plan.arrange')} />
        <ArrangePlan
          tables={floor.tables.filter((x) => x.is_active)}
          onDone={async (done) => {
            if (done) await reload();
            setSaved(done);
            setArranging(false);
          }}
        />
      </>
    );
  }
  const zones = [...new Set(floor.tables.map((x) => x.zone ?? ''))].sort();
  const codeOf = (tbl: Table) => floor.codes.find((c) => c.table === tbl.id);
  const makeCode = (tbl: Table) => act(async () => (await POST('/v1/qr_codes', { body: { table: tbl.id } }), await reload()));

  return (
    <>
      <PageHeader title={t('floor.title')}>
        {writable ? (
          <Button variant="primary" onClick={() => setEditing('new')}>
            {t('floor.newTable')}
          </Button>
        ) : null}
        {writable && floor.tables.length ? (
          <Button onClick={() => (setSaved(false), setArranging(true))}>{t('plan.arrange')}</Button>
        ) : null}
        {floor.tables.length ? (
          <a class="btn" href="/app/floor/qr-sheet">
            {t('floor.qrSheet')}
          </a>
        ) : null}
      </PageHeader>
      <ErrorNote error={actError} />
      {saved ? <p role="status">{t('plan.saved')}</p> : null}
      {floor.tables.length === 0 ? <Empty>{t('floor.none')}</Empty> : null}
      {zones.map((zone) => (
        <section key={zone} class="menu-section">
          <h2>{zone || t('floor.noZone')}</h2>
          <DataTable
            rows={floor.tables.filter((x) => (x.zone ?? '') === zone)}
            rowKey={(tbl) => tbl.id}
            columns={[
              { label: t('col.table'), cell: (tbl) => <strong class="table-no">{tbl.number}</strong> },
              { label: t('floor.capacity'), cell: (tbl) => t('floor.seats', { n: tbl.capacity }) },
              { label: t('col.qr'), cell: (tbl) => <Badge tone={codeOf(tbl) ? 'good' : 'neutral'}>{codeOf(tbl) ? t('floor.hasQr') : t('floor.noQr')}</Badge> },
            ]}
            actions={
              writable
                ? (tbl) => (
                    <>
                      {!codeOf(tbl) ? (
                        <Button disabled={busy} onClick={() => makeCode(tbl)} aria-label={t('floor.makeQrFor', { n: tbl.number })}>
                          {t('floor.makeQr')}
                        </Button>
                      ) : null}
                      <Button onClick={() => setEditing(tbl)} aria-label={t('floor.editTable', { n: tbl.number })}>
                        {t('common.edit')}
                      </Button>
                    </>
                  )
                : null
            }
          />
        </section>
      ))}
      {editing ? <TableDialog table={editing === 'new' ? null : editing} onClose={() => setEditing(null)} onSaved={reload} /> : null}
    </>
  );
}

function TableDialog({ table, onClose, onSaved }: { table: Table | null; onClose: () => void; onSaved: () => Promise<void> }) {
  const [number, setNumber] = useState(table ? String(table.number) : '');
  const [capacity, setCapacity] = useState(table ? String(table.capacity) : '4');
  const [zone, setZone] = useState(table?.zone ?? '');
  const [opened] = useState(() => ({ number, capacity, zone }));
  const bodyOf = (f: typeof opened) => ({ number: Number(f.number), capacity: Number(f.capacity), zone: f.zone.trim() || null });
  const save = async () => {
    const body = bodyOf({ number, capacity, zone });
    if (table) await patchChanged('/v1/tables/{id}', { path: { id: table.id } }, body, bodyOf(opened));
    // a new table gets its QR code at once: it is what the guests there order from
    else await POST('/v1/qr_codes', { body: { table: (await POST('/v1/tables', { body })).id } });
    await onSaved();
    onClose();
  };
  const remove = table
    ? {
        label: t('floor.removeTable'),
        title: t('form.removeTableNamed', { n: table.number }),
        message: t('form.removeTable', { n: table.number }),
        confirmLabel: t('common.remove'),
        run: async () => {
          await DELETE('/v1/tables/{id}', { path: { id: table.id } });
          await onSaved();
          onClose();
        },
      }
    : null;
  return (
    <FormDialog title={table ? t('floor.editTable', { n: table.number }) : t('floor.newTable')} onClose={onClose} onSubmit={save} remove={remove}>
      <div class="row">
        <Field label={t('floor.number')} name="number" type="number" min={1} required value={number} onInput={(e) => setNumber((e.target as HTMLInputElement).value)} />
        <Field label={t('floor.capacity')} name="capacity" type="number" min={1} max={100} required value={capacity} onInput={(e) => setCapacity((e.target as HTMLInputElement).value)} />
      </div>
      <Field label={t('floor.zone')} name="zone" value={zone} onInput={(e) => setZone((e.target as HTMLInputElement).value)} hint={t('floor.zoneHint')} />
    </FormDialog>
  );
}

/** One card per table with its QR code, the table number and the venue's name; print CSS lays them out on paper. */
export function QrSheetPage() {
  const [floor, error] = useLoad(loadFloor);
  const [images, setImages] = useState<Map<string, string>>(new Map());
  useEffect(() => {
    if (!floor) return;
    void (async () => {
      const out = new Map<string, string>();
      for (const c of floor.codes) out.set(c.id, await QRCode.toDataURL(c.url, { margin: 1, width: 320, errorCorrectionLevel: 'M' }));
      setImages(out);
    })();
  }, [floor]);
  if (!floor) return error ? <ErrorNote error={error} /> : <Loading />;
  const name = session.value!.restaurant.name;
  const cards = floor.tables.map((tbl) => ({ tbl, code: floor.codes.find((c) => c.table === tbl.id) })).filter((x) => x.code);
  return (
    <>
      <div class="no-print">
        <p class="crumbs">
          <a href="/app/floor">← {t('floor.title')}</a>
        </p>
        <PageHeader title={t('floor.qrSheet')}>
          <Button variant="primary" onClick={() => window.print()}>
            {t('floor.print')}
          </Button>
        </PageHeader>
        {cards.length < floor.tables.length ? <p class="hint">{t('floor.missingQr')}</p> : null}
      </div>
      <ul class="qr-sheet" aria-label={t('floor.qrSheet')}>
        {cards.map(({ tbl, code }) => (
          <li class="qr-card" key={tbl.id}>
            <span class="qr-venue">{name}</span>
            {images.get(code!.id) ? <img src={images.get(code!.id)} alt={t('floor.qrAlt', { n: tbl.number })} width={160} height={160} /> : <span class="qr-wait" />}
            <span class="qr-table">{t('floor.tableN', { n: tbl.number })}</span>
            <span class="qr-help">{t('floor.scanToOrder')}</span>
            {/* for a phone that cannot scan: the table's menu typed in */}
            <span class="qr-url">{code!.url}</span>
          </li>
        ))}
      </ul>
    </>
  );
}
