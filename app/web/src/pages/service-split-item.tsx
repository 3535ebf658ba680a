import { useState } from 'preact/hooks';
import { GET } from '../lib/client.ts';
import { money } from '../lib/format.ts';
import { t } from '../lib/i18n.ts';
import type { Order as ApiOrder } from '../lib/types.ts';
import { Badge, Button, useLoad } from '../ui/kit.tsx';
import type { PayTarget } from '../ui/payment.tsx';

/** The shares a tablet offers: two to eight guests on one line (the API takes up to 20). */
const PARTS = [2, 3, 4, 5, 6, 7, 8];

/**
 * "Split one item": a line several guests share (a bottle between three), paid one equal share
 * at a time. Each share, what the next payment records and what is left on the line are the
 * hub's (GET /v1/orders/{id}/balance?items=oi_…:N): the tablet divides nothing. A line once a
 * share of it is paid stays split in that many parts until every share is paid.
 */
export function SplitOneItem({ order, onPay }: { order: ApiOrder; onPay: (target: PayTarget) => void }) {
  const [lineId, setLineId] = useState<string | null>(null);
  const [parts, setParts] = useState<number | null>(null);
  const money$ = (n: number) => money(n, order.currency);
  const deps = [order.id, order.amount_paid, order.amount_due, order.total];
  const [now] = useLoad(() => GET('/v1/orders/{id}/balance', { path: { id: order.id } }), deps);
  const splitting = new Map((now?.split_items ?? []).map((x) => [x.item, x]));
  const unpaid = new Set((now?.seats ?? []).flatMap((s) => s.unpaid_items));
  // lines that can still be split (unpaid, or being split with shares owing), and the one picked
  const lines = order.items.filter((l) => unpaid.has(l.id) || splitting.get(l.id)?.next || l.id === lineId);
  const line = lines.find((l) => l.id === lineId) ?? null;
  const current = line ? splitting.get(line.id) : undefined;
  const n = current?.parts ?? parts;
  // a line with every share paid is asked nothing more: its shares come from the balance as it is
  const key = line && n && (!current || current.next) ? `${line.id}:${n}` : null;
  const [asked] = useLoad(async () => (key ? { key, balance: await GET('/v1/orders/{id}/balance', { path: { id: order.id }, query: { items: key } }) } : null), [...deps, key]);
  // an answer for what is picked now (one asked for before may land late)
  const b = key && asked?.key === key ? asked.balance : null;
  const split = b?.split_items.find((x) => x.item === line!.id) ?? current ?? null;
  const next = b?.items_charge?.item_shares[0] ?? null;
  return (
    <section class="card split-item" aria-labelledby="split-item-title">
      <h2 id="split-item-title">{t('service.splitItem')}</h2>
      <p class="hint">{t('service.splitItemHint')}</p>
      <div class="chips" role="group" aria-labelledby="split-item-title">
        {lines.map((l) => (
          <Button key={l.id} class="chip split-line" aria-pressed={l.id === lineId} onClick={() => setLineId(l.id === lineId ? null : l.id)}>
            {l.quantity}× {l.name} · {money$(l.net_amount)}
          </Button>
        ))}
      </div>
      {line ? (
        <div class="chips" role="group" aria-label={t('service.splitParts')}>
          <span>{t('service.splitParts')}</span>
          {PARTS.map((k) => (
            <Button key={k} class="chip" aria-pressed={n === k} aria-label={t('service.splitIn', { n: k })} disabled={!!splitting.get(line.id) && n !== k} onClick={() => setParts(k)}>
              {k}
            </Button>
          ))}
        </div>
      ) : null}
      {split ? (
        <>
          <ul class="plain-list split-shares">
            {split.shares.map((s) => (
              <li key={s.part} data-share-part={s.part} data-amount={s.amount} data-paid={String(s.paid)}>
                {t('service.shareOf', { n: s.part, parts: split.parts })} · <strong>{money$(s.amount)}</strong> {s.paid ? <Badge tone="good">{t('service.sharePaid')}</Badge> : null}
              </li>
            ))}
          </ul>
          <p class="split-left" data-split-left={split.left}>
            {t('service.splitLeft', { amount: money$(split.left) })}
          </p>
          {next && b!.items_charge!.amount > 0 ? (
            <Button variant="primary" data-share-amount={b!.items_charge!.amount} onClick={() => onPay({ items: null, share: { line: line!, parts: split.parts, part: next.part }, amount: b!.items_charge!.amount })}>
              {t('service.payShare', { n: next.part, parts: split.parts, amount: money$(b!.items_charge!.amount) })}
            </Button>
          ) : null}
        </>
      ) : null}
    </section>
  );
}
