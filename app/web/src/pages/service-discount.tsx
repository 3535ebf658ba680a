import { useState } from 'preact/hooks';
import { ApiFailure } from '../lib/api.ts';
import { useAnswer } from '../lib/answer.ts';
import { GET } from '../lib/client.ts';
import { useFormFor } from '../lib/form-for.ts';
import { money, parseMoney } from '../lib/format.ts';
import { t } from '../lib/i18n.ts';
import { session } from '../lib/session.ts';
import { Button, Dialog, Field } from '../ui/kit.tsx';

/** What is discounted: one line (by its index) or the whole check of `order`; `base` is what it is taken from (the hub's figure). */
export type DiscountTarget = { order: string; line: { index: number; name: string } | null; base: number; current: number; currency: string };
export type DiscountBody = { amount?: number; percent?: number; reason: string; manager_pin?: string };

type Mode = 'comp' | 'percent' | 'amount';
type Form = { mode: Mode; value: string; reason: string; pin: string; error: string | null };

/** A line opens on a comp (the usual case: a dish sent back), the check on a percent. */
const blank = (target: DiscountTarget | null): Form => ({ mode: target?.line ? 'comp' : 'percent', value: '', reason: '', pin: '', error: null });

/** What the sheet asks for: a comp is 100 percent; a percent or an amount is the person's own figure (null: not one yet). */
function askedOf(mode: Mode, value: string, cur: string): { percent: number } | { amount: number } | null {
  if (mode === 'comp') return { percent: 100 };
  if (mode === 'percent') {
    const p = Number(value.replace(',', '.'));
    return value.trim() && p > 0 && p <= 100 ? { percent: p } : null;
  }
  const a = parseMoney(value, cur);
  return a !== null && a > 0 ? { amount: a } : null;
}

/**
 * What the discount asked takes off, as the hub works it out by the rule it records it by
 * (GET …/discount): a percent's rounding is the hub's, not this page's. Null while it is asked,
 * or when the hub refuses it (more than the base).
 */
function useQuote(target: DiscountTarget | null, asked: ReturnType<typeof askedOf>): { amount: number; left: number } | null {
  return useAnswer(
    target && asked
      ? {
          key: JSON.stringify([target.order, target.line?.index ?? null, asked]),
          ask: () => {
            const query = 'percent' in asked ? { percent: asked.percent } : { amount: asked.amount };
            return target.line
              ? GET('/v1/orders/{id}/items/{index}/discount', { path: { id: target.order, index: target.line.index }, query })
              : GET('/v1/orders/{id}/discount', { path: { id: target.order }, query });
          },
        }
      : null,
  );
}

/** A manager or owner approves their own discounts; anyone else needs a manager to type their PIN (the API's rule). */
export const needsApproval = () => !['owner', 'manager'].includes(session.value?.role ?? '');

/**
 * The discount or comp sheet for a line or the check: how much (all of it, a percent or an
 * amount), why, and a manager's PIN when the person signed in may not approve it. It stays open
 * on a refusal (a wrong PIN is typed again, not the whole form).
 */
export function DiscountSheet({ target, onClose, onApply }: { target: DiscountTarget | null; onClose: () => void; onApply: (body: DiscountBody) => Promise<void> }) {
  const [{ mode, value, reason, pin, error }, set] = useFormFor(target, blank);
  const [busy, setBusy] = useState(false);
  const cur = (target?.currency ?? '').toUpperCase();
  const asked = askedOf(mode, value, cur);
  const quote = useQuote(target, asked);
  if (!target) return <Dialog title="" open={false} onClose={onClose}>{null}</Dialog>;
  const approval = needsApproval();
  const off = quote?.amount ?? null;
  const apply = async (body: DiscountBody) => {
    setBusy(true);
    set({ error: null });
    try {
      await onApply({ ...body, ...(approval ? { manager_pin: pin } : {}) });
    } catch (e) {
      set({ error: e instanceof ApiFailure ? e.message : String(e), pin: '' });
    } finally {
      setBusy(false);
    }
  };
  const submit = (e: Event) => {
    e.preventDefault();
    if (off === null || !asked) return;
    void apply({ ...asked, reason: reason.trim() });
  };
  const ready = off !== null && reason.trim() !== '' && (!approval || /^\d{4,6}$/.test(pin)) && !busy;
  const title = target.line ? t('service.discount.lineTitle', { name: target.line.name }) : t('service.discount.checkTitle');
  return (
    // kit: a Dialog, not a FormDialog: a tablet sheet kept mounted for one target after another (useFormFor), with a live preview and a remove that needs no confirmation
    <Dialog title={title} open onClose={onClose}>
      <form class="discount-sheet" onSubmit={submit}>
        <div class="chips" role="group" aria-label={t('service.discount.how')}>
          {(['comp', 'percent', 'amount'] as const).map((m) => (
            <Button key={m} class="chip" aria-pressed={mode === m} onClick={() => set({ mode: m, value: '' })}>
              {t(`service.discount.mode.${m}`)}
            </Button>
          ))}
        </div>
        {mode === 'percent' ? (
          <Field label={t('service.discount.percent')} type="text" inputMode="decimal" autoComplete="off" value={value} onInput={(e) => set({ value: (e.target as HTMLInputElement).value })} />
        ) : mode === 'amount' ? (
          <Field label={t('service.discount.amount', { max: money(target.base, cur) })} type="text" inputMode="decimal" autoComplete="off" value={value} onInput={(e) => set({ value: (e.target as HTMLInputElement).value })} />
        ) : null}
        <p class="discount-preview" aria-live="polite">
          {quote ? t('service.discount.preview', { off: money(quote.amount, cur), left: money(quote.left, cur) }) : t('service.discount.enter')}
        </p>
        <Field label={t('service.discount.reason')} value={reason} required onInput={(e) => set({ reason: (e.target as HTMLInputElement).value })} />
        {approval ? (
          <Field
            label={t('service.discount.managerPin')}
            hint={t('service.discount.approvalHint')}
            type="password"
            inputMode="numeric"
            autoComplete="off"
            maxLength={6}
            value={pin}
            onInput={(e) => set({ pin: (e.target as HTMLInputElement).value })}
          />
        ) : null}
        {error ? <p class="error-text" role="alert">{error}</p> : null}
        <div class="dialog-actions">
          {target.current > 0 ? (
            <Button variant="danger" disabled={busy || (approval && !/^\d{4,6}$/.test(pin))} onClick={() => apply({ amount: 0, reason: reason.trim() || t('service.discount.removed') })}>
              {t('service.discount.remove')}
            </Button>
          ) : null}
          <Button variant="primary" type="submit" disabled={!ready}>
            {mode === 'comp' ? t('service.discount.applyComp') : t('service.discount.apply')}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
