import { useState } from 'preact/hooks';
import { POST, patchChanged } from '../lib/client.ts';
import { t } from '../lib/i18n.ts';
import type { Station } from '../lib/types.ts';
import { CheckList, Field, SelectField, Toggle } from '../ui/kit.tsx';
import { FormDialog } from '../ui/form-dialog.tsx';

export interface Printer {
  id: string;
  name: string;
  /** `virtual`: prints nowhere; its jobs are kept and previewed on the Printers page */
  transport: { type: 'tcp'; host: string; port: number } | { type: 'virtual' };
  language: 'escpos' | 'starprnt';
  paper_width: number;
  stations: string[];
  prints_receipts: boolean;
  /** a cash drawer on its kick-out port: cash payments open it (a receipt printer only) */
  cash_drawer: boolean;
  backup_printer: string | null;
  is_active: boolean;
  status: { state: string; detail: string | null; checked_at: number | null };
}

/** Add or edit a printer: a network printer's address (raw TCP, port 9100) or a virtual one (no paper), its dialect and paper, what it prints. */
export function PrinterDialog({ printer, printers, stations, onClose, onSaved }: { printer: Printer | 'new'; printers: Printer[]; stations: Station[]; onClose: () => void; onSaved: () => void }) {
  const editing = printer === 'new' ? null : printer;
  const [form, setForm] = useState({
    name: editing?.name ?? '',
    connection: editing?.transport.type ?? 'tcp',
    host: editing?.transport.type === 'tcp' ? editing.transport.host : '',
    port: String(editing?.transport.type === 'tcp' ? editing.transport.port : 9100),
    language: editing?.language ?? 'escpos',
    paper_width: String(editing?.paper_width ?? 80),
    stations: new Set(editing?.stations ?? []),
    prints_receipts: editing?.prints_receipts ?? false,
    cash_drawer: editing?.cash_drawer ?? false,
    backup_printer: editing?.backup_printer ?? '',
    is_active: editing?.is_active ?? true,
  });
  const text = (k: 'name' | 'host' | 'port') => ({
    value: form[k],
    onInput: (e: Event) => setForm({ ...form, [k]: (e.target as HTMLInputElement).value }),
  });
  const [opened] = useState(form);
  const bodyOf = (f: typeof form) => ({
    name: f.name,
    transport: f.connection === 'virtual' ? { type: 'virtual' as const } : { type: 'tcp' as const, host: f.host.trim(), port: Number(f.port) },
    language: f.language,
    paper_width: Number(f.paper_width) as 58 | 80,
    stations: [...f.stations],
    prints_receipts: f.prints_receipts,
    // the drawer opens with a cash payment's receipt: on a printer that prints none it never would
    cash_drawer: f.prints_receipts && f.cash_drawer,
    backup_printer: f.backup_printer || null,
    is_active: f.is_active,
  });
  const save = async () => {
    const body = bodyOf(form);
    await (editing ? patchChanged('/v1/printers/{id}', { path: { id: editing.id } }, body, bodyOf(opened)) : POST('/v1/printers', { body: body }));
    onSaved();
  };
  const others = printers.filter((p) => p.id !== editing?.id);
  return (
    <FormDialog title={editing ? t('ops.printer.edit', { name: editing.name }) : t('ops.printer.new')} onClose={onClose} onSubmit={save} invalid={{ 'transport.host': t('form.host') }}>
      <Field label={t('ops.printer.name')} name="name" hint={t('ops.printer.nameHint')} required {...text('name')} />
      <SelectField
        label={t('ops.printer.connection')}
        name="transport.type"
        hint={form.connection === 'virtual' ? t('ops.printer.virtualHint') : undefined}
        value={form.connection}
        onChange={(v) => setForm({ ...form, connection: v as 'tcp' | 'virtual' })}
        options={[
          { value: 'tcp', label: t('ops.printer.network') },
          { value: 'virtual', label: t('ops.printer.virtual') },
        ]}
      />
      {form.connection === 'tcp' ? (
        <div class="row">
          <Field label={t('ops.printer.host')} name="transport.host" also={['transport']} hint={t('ops.printer.hostHint')} required {...text('host')} />
          <Field label={t('ops.printer.port')} name="transport.port" type="number" min={1} max={65535} required {...text('port')} />
        </div>
      ) : null}
      <div class="row">
        <SelectField
          label={t('ops.printer.language')}
          name="language"
          value={form.language}
          onChange={(v) => setForm({ ...form, language: v as 'escpos' | 'starprnt' })}
          options={[
            { value: 'escpos', label: t('ops.printer.escpos') },
            { value: 'starprnt', label: t('ops.printer.starprnt') },
          ]}
        />
        <SelectField
          label={t('ops.printer.paper')}
          name="paper_width"
          value={form.paper_width}
          onChange={(v) => setForm({ ...form, paper_width: v })}
          options={[
            { value: '80', label: '80 mm' },
            { value: '58', label: '58 mm' },
          ]}
        />
      </div>
      <CheckList
        legend={t('ops.printer.stations')}
        name="stations"
        hint={stations.length === 0 ? t('ops.printer.noStations') : undefined}
        options={stations.map((s) => ({ value: s.key, label: s.name }))}
        selected={form.stations}
        onChange={(next) => setForm({ ...form, stations: next })}
      />
      <div>
        <Toggle label={t('ops.printer.receipts')} checked={form.prints_receipts} onChange={(v) => setForm({ ...form, prints_receipts: v })} />
      </div>
      {form.prints_receipts ? (
        <div>
          <Toggle label={t('ops.printer.drawer')} checked={form.cash_drawer} onChange={(v) => setForm({ ...form, cash_drawer: v })} />
          <small class="hint block">{t('ops.printer.drawerHint')}</small>
        </div>
      ) : null}
      <SelectField
        label={t('ops.printer.backup')}
        name="backup_printer"
        hint={t('ops.printer.backupHint')}
        value={form.backup_printer}
        onChange={(v) => setForm({ ...form, backup_printer: v })}
        options={[{ value: '', label: t('ops.printer.noBackup') }, ...others.map((p) => ({ value: p.id, label: p.name }))]}
      />
      <Toggle label={t('ops.printer.active')} checked={form.is_active} onChange={(v) => setForm({ ...form, is_active: v })} />
    </FormDialog>
  );
}
