import { useState } from 'preact/hooks';
import { patchChanged, post } from '../lib/api.ts';
import { t } from '../lib/i18n.ts';
import type { Station } from '../lib/types.ts';
import { Button, Dialog, Field, fieldError, FormError, SelectField, Toggle, useAction } from '../ui/kit.tsx';

export interface Printer {
  id: string;
  name: string;
  transport: { type: 'tcp'; host: string; port: number };
  language: 'escpos' | 'starprnt';
  paper_width: number;
  stations: string[];
  prints_receipts: boolean;
  backup_printer: string | null;
  is_active: boolean;
  status: { state: string; detail: string | null; checked_at: number | null };
}

const FIELDS = ['name', 'transport', 'transport.host', 'transport.port', 'language', 'paper_width', 'stations', 'backup_printer'];

/** Add or edit a printer: a network printer's address (raw TCP, port 9100), its dialect and paper, what it prints. */
export function PrinterDialog({ printer, printers, stations, onClose, onSaved }: { printer: Printer | 'new'; printers: Printer[]; stations: Station[]; onClose: () => void; onSaved: () => void }) {
  const editing = printer === 'new' ? null : printer;
  const [form, setForm] = useState({
    name: editing?.name ?? '',
    host: editing?.transport.host ?? '',
    port: String(editing?.transport.port ?? 9100),
    language: editing?.language ?? 'escpos',
    paper_width: String(editing?.paper_width ?? 80),
    stations: new Set(editing?.stations ?? []),
    prints_receipts: editing?.prints_receipts ?? false,
    backup_printer: editing?.backup_printer ?? '',
    is_active: editing?.is_active ?? true,
  });
  const [act, busy, error] = useAction();
  const text = (k: 'name' | 'host' | 'port') => ({
    value: form[k],
    onInput: (e: Event) => setForm({ ...form, [k]: (e.target as HTMLInputElement).value }),
  });
  const [opened] = useState(form);
  const bodyOf = (f: typeof form) => ({
    name: f.name,
    transport: { type: 'tcp', host: f.host.trim(), port: Number(f.port) },
    language: f.language,
    paper_width: Number(f.paper_width),
    stations: [...f.stations],
    prints_receipts: f.prints_receipts,
    backup_printer: f.backup_printer || null,
    is_active: f.is_active,
  });
  const save = async (e: Event) => {
    e.preventDefault();
    const body = bodyOf(form);
    if (await act(() => (editing ? patchChanged(`/v1/printers/${editing.id}`, body, bodyOf(opened)) : post('/v1/printers', body)))) onSaved();
  };
  const others = printers.filter((p) => p.id !== editing?.id);
  return (
    <Dialog title={editing ? t('ops.printer.edit', { name: editing.name }) : t('ops.printer.new')} open onClose={onClose}>
      <form onSubmit={save}>
        <Field label={t('ops.printer.name')} hint={t('ops.printer.nameHint')} required error={fieldError(error, 'name')} {...text('name')} />
        <div class="row">
          <Field label={t('ops.printer.host')} hint={t('ops.printer.hostHint')} required error={fieldError(error, 'transport.host', 'transport')} {...text('host')} />
          <Field label={t('ops.printer.port')} type="number" min={1} max={65535} required error={fieldError(error, 'transport.port')} {...text('port')} />
        </div>
        <div class="row">
          <SelectField
            label={t('ops.printer.language')}
            value={form.language}
            onChange={(v) => setForm({ ...form, language: v as 'escpos' | 'starprnt' })}
            options={[
              { value: 'escpos', label: t('ops.printer.escpos') },
              { value: 'starprnt', label: t('ops.printer.starprnt') },
            ]}
          />
          <SelectField
            label={t('ops.printer.paper')}
            value={form.paper_width}
            onChange={(v) => setForm({ ...form, paper_width: v })}
            options={[
              { value: '80', label: '80 mm' },
              { value: '58', label: '58 mm' },
            ]}
          />
        </div>
        <fieldset class="checks">
          <legend>{t('ops.printer.stations')}</legend>
          {stations.length === 0 ? <p class="hint">{t('ops.printer.noStations')}</p> : null}
          {stations.map((s) => (
            <label class="check" key={s.key}>
              <input
                type="checkbox"
                checked={form.stations.has(s.key)}
                onChange={(e) => {
                  const next = new Set(form.stations);
                  if ((e.target as HTMLInputElement).checked) next.add(s.key);
                  else next.delete(s.key);
                  setForm({ ...form, stations: next });
                }}
              />
              {s.name}
            </label>
          ))}
          {fieldError(error, 'stations') ? <small class="error-text">{fieldError(error, 'stations')}</small> : null}
        </fieldset>
        <Toggle label={t('ops.printer.receipts')} checked={form.prints_receipts} onChange={(v) => setForm({ ...form, prints_receipts: v })} />
        <SelectField
          label={t('ops.printer.backup')}
          hint={t('ops.printer.backupHint')}
          value={form.backup_printer}
          onChange={(v) => setForm({ ...form, backup_printer: v })}
          options={[{ value: '', label: t('ops.printer.noBackup') }, ...others.map((p) => ({ value: p.id, label: p.name }))]}
        />
        <Toggle label={t('ops.printer.active')} checked={form.is_active} onChange={(v) => setForm({ ...form, is_active: v })} />
        <FormError error={error} fields={FIELDS} />
        <div class="dialog-actions">
          <Button type="submit" variant="primary" disabled={busy}>
            {t('common.save')}
          </Button>
          <Button variant="quiet" onClick={onClose}>
            {t('common.cancel')}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
