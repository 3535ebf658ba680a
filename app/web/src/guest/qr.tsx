import type { JSX } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { ApiFailure } from '../lib/api.ts';
import { useAnswer } from '../lib/answer.ts';
import { GET, POST } from '../lib/client.ts';
import { money } from '../lib/format.ts';
import { useFormFor } from '../lib/form-for.ts';
import { t } from '../lib/i18n.ts';
import { home, startHomes } from '../lib/homes.ts';
import { live } from '../lib/live.ts';
import { Dialog } from '../ui/kit.tsx';
import { guestLanguage, newKey } from './language.ts';

interface Modifier {
  name: string;
  priceAdjustment: number;
  isDefault: boolean;
}
interface Group {
  id: string;
  name: string;
  required: boolean;
  minSelections: number;
  maxSelections: number;
  modifiers: Modifier[];
}
interface Item {
  id: string;
  name: string;
  description: string | null;
  price: number;
  category: string;
  imageUrl: string | null;
  allergens: string[];
  modifierGroups: Group[];
}
interface Place {
  qrCode: { token: string; type: string; label: string | null };
  restaurant: { name: string; currency: string; language?: string };
  table: { number: number } | null;
  categories: { id: string; name: string; description: string | null; sortOrder: number }[];
}
interface CartLine {
  item: Item;
  quantity: number;
  picks: { groupId: string; group: string; name: string; priceAdjustment: number }[];
  notes: string;
}
interface GuestOrder {
  id: string;
  orderNumber: string;
  status: string;
  items: { index: number; name: string; quantity: number; modifiers: { name: string }[]; status: string }[];
  subtotal: number;
  taxAmount: number;
  pricesIncludeTax: boolean;
  total: number;
  currency: string;
}

const STEPS = ['placed', 'preparing', 'ready', 'served'] as const;

/** The cart as the hub prices it (POST /public/qr/{token}/quote): each line's price and their sum; null while asked, or with no answer. */
type CartQuote = { items: number[]; subtotal: number };

/** How long the cart waits before asking again for a price the hub could not give (busy, limited, unreachable). */
const QUOTE_RETRY_MS = 3000;

/**
 * Asks the hub what the cart costs whenever it changes, as the order would be priced: the
 * phone adds up no price. A price the hub could not give for now is asked again shortly, so
 * the cart never keeps "…" in place of a price (lib/answer.ts).
 */
function useCartQuote(token: string, lines: CartLine[]): CartQuote | null {
  const items = lines.map((l) => ({ menuItemId: l.item.id, quantity: l.quantity, modifiers: l.picks.map((p) => ({ group: p.groupId, name: p.name })) }));
  return useAnswer(
    items.length
      ? {
          key: JSON.stringify([token, items]),
          ask: async () => {
            const q = await POST('/public/qr/{token}/quote', { path: { token }, body: { items } });
            return { items: q.items.map((x) => x.price), subtotal: q.subtotal };
          },
        }
      : null,
    QUOTE_RETRY_MS,
  );
}

/**
 * The guest's phone after scanning a table's QR code: the menu, an item sheet, the cart, and
 * then the order's live status; "Order more" adds a round to the same order.
 */
export function QrOrdering({ token }: { token: string }) {
  const data = useQrOrderingData(token);
  const cart = useGuestCart(token, data);
  const { place, items, missing, failure, order, view, setView } = data;
  if (missing) return <main class="guest"><h1>{t('qr.unavailable')}</h1></main>;
  if (!place) return <main class="guest">{failure ? <p role="alert">{failure}</p> : <p>{t('kds.loading')}</p>}</main>;
  const header = (
    <header class="guest-head">
      <h1>{place.restaurant.name}</h1>
      <p>{place.table ? t('qr.table', { n: place.table.number }) : t('qr.takeout')}</p>
    </header>
  );
  if (view === 'status' && order) return <OrderStatus header={header} order={order} onMore={() => setView('menu')} />;
  return <GuestMenu header={header} place={place} items={items} order={order} cart={cart} failure={failure} onStatus={() => setView('status')} />;
}

/**
 * What the page shows and keeps live: the table and its menu (read again when a dish is 86'd
 * or the phone wakes), and the guest's order with its status over /realtime.
 */
function useQrOrderingData(token: string) {
  const stored = `comanda.qr.${token}`;
  const [place, setPlace] = useState<Place | null>(null);
  const [items, setItems] = useState<Item[]>([]);
  const [missing, setMissing] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const [order, setOrder] = useState<GuestOrder | null>(null);
  const [view, setView] = useState<'menu' | 'status'>('menu');

  useEffect(() => {
    // the page carries on through the linked cloud when the hub PC stops (docs/operators/when-the-hub-stops.md)
    startHomes({ kind: 'guest' });
    void (async () => {
      try {
        // both at once: on a slow phone line each round trip counts
        const [p, m] = await Promise.all([GET('/public/qr/{token}', { path: { token } }), GET('/public/qr/{token}/menu', { path: { token } })]);
        guestLanguage(p.restaurant.language);
        setItems(m.items);
        setPlace(p);
        const known = localStorage.getItem(stored);
        if (known) {
          try {
            const o = await GET('/public/qr/{token}/orders/{orderId}', { path: { token, orderId: known } });
            setOrder(o);
            if (!['completed', 'cancelled'].includes(o.status)) setView('status');
          } catch {
            localStorage.removeItem(stored);
          }
        }
      } catch (e) {
        if (e instanceof ApiFailure && e.status === 404) setMissing(true);
        else setFailure(e instanceof Error ? e.message : String(e));
      }
    })();
  }, [token]);

  // an item 86'd in the kitchen leaves an open menu at once: the QR token follows the `menu`
  // topic over /realtime, and a changed dish reads the public menu again (the cached menu costs
  // the hub one version read); the feed reloads after a lost line too. When the phone comes back
  // to the page it reads it again as well: a phone asleep may have had its socket cut quietly.
  const refreshMenu = () => void GET('/public/qr/{token}/menu', { path: { token } }).then((m) => setItems(m.items), () => {});
  useEffect(() => {
    live.authWith({ kind: 'qr', token }, () => {});
    // The first confirmation does not read the menu again: it was preloaded with the page a
    // moment before (a phone on a slow line pays for every request). A dish 86'd in that
    // moment is still refused by name if ordered, and gone when the phone comes back.
    let first = true;
    const stop = live.listen(['menu'], (m) => m.type === 'menu_item' && refreshMenu(), () => (first ? (first = false) : refreshMenu()));
    const onShow = () => document.visibilityState === 'visible' && refreshMenu();
    document.addEventListener('visibilitychange', onShow);
    return () => {
      stop();
      document.removeEventListener('visibilitychange', onShow);
    };
  }, [token]);

  // the order's status, live over /realtime with the QR token; a reconnect resumes by seq
  const orderId = order?.id;
  useEffect(() => {
    if (!orderId) return;
    live.authWith({ kind: 'qr', token }, () => {});
    const reload = () => void GET('/public/qr/{token}/orders/{orderId}', { path: { token, orderId } }).then(setOrder, () => {});
    const stop = live.listen([`order:${orderId}`], (m) => m.type === 'order' && reload(), reload);
    reload();
    return stop;
  }, [orderId]);

  /** An order placed or added to: remembered on the phone, shown with its status. */
  const placed = (o: GuestOrder) => {
    localStorage.setItem(stored, o.id);
    setOrder(o);
    setView('status');
  };
  return { place, items, missing, failure, setFailure, order, placed, view, setView, refreshMenu };
}

type QrData = ReturnType<typeof useQrOrderingData>;

/** The cart and sending it: a new order, or a round added to the open one. */
function useGuestCart(token: string, { order, placed, setFailure, refreshMenu }: QrData) {
  const [lines, setLines] = useState<CartLine[]>([]);
  const [cartKey, setCartKey] = useState(newKey);
  const [isOpen, setOpen] = useState(false);
  const [name, setName] = useState('');
  const [sending, setSending] = useState(false);
  const open = !!order && !['completed', 'cancelled'].includes(order.status);

  const send = async () => {
    setSending(true);
    setFailure(null);
    const body = {
      items: lines.map((l) => ({ menuItemId: l.item.id, quantity: l.quantity, modifiers: l.picks.map((p) => ({ group: p.groupId, name: p.name })), notes: l.notes || undefined })),
      ...(open ? {} : { customerName: name.trim() || undefined }),
    };
    // the same key for every resend of this cart: the server answers a retry with the first order.
    // Not across homes (keys are each home's own): a cart the hub may have taken before it fell
    // silent is sent to the cloud only when the guest taps again
    const at = home.value;
    for (let attempt = 0; ; attempt++) {
      try {
        const headers = { 'Idempotency-Key': cartKey };
        const o = await (open
          ? POST('/public/qr/{token}/orders/{orderId}/items', { path: { token, orderId: order!.id }, body, headers })
          : POST('/public/qr/{token}/orders', { path: { token }, body, headers }));
        setLines([]);
        setCartKey(newKey());
        setOpen(false);
        placed(o);
        break;
      } catch (e) {
        const f = e instanceof ApiFailure ? e : null;
        if (f && ((f.status === 0 && home.value === at) || (f.status === 409 && f.code === 'idempotency_key_in_use')) && attempt < 4) {
          await new Promise((r) => setTimeout(r, 800 * (attempt + 1)));
          continue;
        }
        if (f?.code === 'menu_item_unavailable') {
          // sold out (86'd) since the menu was loaded: say which dish in the guest's words, take it
          // out of the cart, and show the menu as it is now
          const at = /items\[(\d+)\]/.exec(f.param ?? '');
          const line = at ? lines[Number(at[1])] : undefined;
          const gone = line?.item.id;
          if (gone) setLines((c) => c.filter((l) => l.item.id !== gone));
          setFailure(line ? t('qr.soldOut', { name: line.item.name }) : t('qr.soldOutSome'));
          refreshMenu();
          break;
        }
        // no answer from either home: said in the guest's words; the cart stays for another tap
        setFailure(f?.status === 0 ? t(home.value === at ? 'qr.noAnswer' : 'qr.homeChanged') : t('qr.failed', { reason: f?.message ?? String(e) }));
        break;
      }
    }
    setSending(false);
  };
  const quote = useCartQuote(token, lines);
  return { lines, setLines, isOpen, setOpen, name, setName, sending, send, open, quote };
}

type GuestCart = ReturnType<typeof useGuestCart>;

function OrderStatus({ header, order, onMore }: { header: JSX.Element; order: GuestOrder; onMore: () => void }) {
  const step = STEPS.indexOf(order.status as (typeof STEPS)[number]);
  return (
    <main class="guest">
      {header}
      {live.status.value === 'offline' ? <p class="guest-banner" role="status">{t('qr.offline')}</p> : null}
      <section class="guest-card" aria-labelledby="status-title">
        <h2 id="status-title">{t('qr.statusTitle', { n: order.orderNumber })}</h2>
        <ol class="steps">
          {STEPS.map((s, i) => (
            <li key={s} class={i < step ? 'done' : i === step ? 'current' : ''} aria-current={i === step ? 'step' : undefined}>
              {t(`qr.status.${s}` as 'qr.status.placed')}
            </li>
          ))}
        </ol>
        {step < 0 ? <p class="order-state">{t(`qr.status.${order.status}` as 'qr.status.placed')}</p> : null}
        <ul class="guest-lines">
          {order.items.map((l) => (
            <li key={l.index}>
              <span>
                {l.quantity}× {l.name}
                {l.modifiers.length ? <small> · {l.modifiers.map((m) => m.name).join(', ')}</small> : null}
              </span>
              <span class={`pill pill-${l.status}`}>{t(`qr.status.${l.status === 'pending' ? 'placed' : l.status}` as 'qr.status.placed')}</span>
            </li>
          ))}
        </ul>
        {/* tax on top is a line of the sum; tax inside the prices is told after the total, never between
            two equal amounts (a subtotal, the tax and a total equal to the subtotal read as a wrong sum) */}
        <dl class="totals">
          {order.pricesIncludeTax && order.subtotal === order.total ? null : (
            <>
              <dt>{t('qr.subtotal')}</dt>
              <dd>{money(order.subtotal, order.currency.toUpperCase())}</dd>
            </>
          )}
          {order.pricesIncludeTax ? null : (
            <>
              <dt>{t('tax.onTop')}</dt>
              <dd>{money(order.taxAmount, order.currency.toUpperCase())}</dd>
            </>
          )}
          <dt class="total">{t('qr.total')}</dt>
          <dd class="total">{money(order.total, order.currency.toUpperCase())}</dd>
          {order.pricesIncludeTax ? (
            <>
              <dt class="tax-included">{t('tax.included')}</dt>
              <dd class="tax-included">{money(order.taxAmount, order.currency.toUpperCase())}</dd>
            </>
          ) : null}
        </dl>
      </section>
      <button type="button" class="btn btn-primary wide big" onClick={onMore}>
        {t('qr.orderMore')}
      </button>
    </main>
  );
}

function GuestMenu({ header, place, items, order, cart, failure, onStatus }: { header: JSX.Element; place: Place; items: Item[]; order: GuestOrder | null; cart: GuestCart; failure: string | null; onStatus: () => void }) {
  const [sheet, setSheet] = useState<Item | null>(null);
  const cur = place.restaurant.currency;
  const count = cart.lines.reduce((s, l) => s + l.quantity, 0);
  const cats = [...place.categories].sort((a, b) => a.sortOrder - b.sortOrder).filter((c) => items.some((i) => i.category === c.id));
  return (
    <main class="guest">
      {header}
      {live.status.value === 'offline' ? <p class="guest-banner" role="status">{t('qr.offline')}</p> : null}
      {!items.length ? <p>{t('qr.nothing')}</p> : null}
      {cats.length > 1 ? (
        <nav class="cat-nav" aria-label={t('qr.menu')}>
          {cats.map((c) => (
            <a key={c.id} href={`#cat-${c.id}`} class="btn">
              {c.name}
            </a>
          ))}
        </nav>
      ) : null}
      {cats.map((c) => (
        <section key={c.id} id={`cat-${c.id}`} aria-labelledby={`h-${c.id}`} class="guest-cat">
          <h2 id={`h-${c.id}`}>{c.name}</h2>
          {c.description ? <p class="muted">{c.description}</p> : null}
          <ul class="menu-list">
            {items
              .filter((i) => i.category === c.id)
              .map((i) => (
                <li key={i.id}>
                  <button type="button" class="menu-item" onClick={() => setSheet(i)}>
                    {i.imageUrl ? <img src={i.imageUrl} alt="" loading="lazy" /> : null}
                    <span class="menu-text">
                      <span class="menu-name">{i.name}</span>
                      {i.description ? <span class="menu-desc">{i.description}</span> : null}
                      {i.allergens.length ? <span class="menu-allergens">{t('qr.allergens', { list: i.allergens.join(', ') })}</span> : null}
                    </span>
                    <span class="menu-price">{money(i.price, cur)}</span>
                  </button>
                </li>
              ))}
          </ul>
        </section>
      ))}
      {order && cart.open ? (
        <button type="button" class="btn wide" onClick={onStatus}>
          {t('qr.statusTitle', { n: order.orderNumber })}
        </button>
      ) : null}
      {count ? (
        <div class="cart-bar">
          <button type="button" class="btn btn-primary wide big" onClick={() => cart.setOpen(true)}>
            {t('qr.viewCart', { count, price: cart.quote ? money(cart.quote.subtotal, cur) : '…' })}
          </button>
        </div>
      ) : null}
      <ItemSheet
        item={sheet}
        currency={cur}
        onClose={() => setSheet(null)}
        onAdd={(line) => {
          cart.setLines([...cart.lines, line]);
          setSheet(null);
        }}
      />
      <CartDialog cart={cart} currency={cur} failure={failure} />
    </main>
  );
}

function CartDialog({ cart, currency: cur, failure }: { cart: GuestCart; currency: string; failure: string | null }) {
  const { lines, open, quote } = cart;
  return (
    <Dialog title={t('qr.cart')} open={cart.isOpen} onClose={() => cart.setOpen(false)}>
      {lines.length ? (
        <ul class="guest-lines">
          {lines.map((l, i) => (
            <li key={i}>
              <span>
                {l.quantity}× {l.item.name}
                {l.picks.length ? <small> · {l.picks.map((p) => p.name).join(', ')}</small> : null}
                {l.notes ? <small> · {l.notes}</small> : null}
              </span>
              <span>{quote ? money(quote.items[i]!, cur) : '…'}</span>
              <button type="button" class="btn btn-quiet" onClick={() => cart.setLines(lines.filter((_, j) => j !== i))}>
                {t('qr.remove')}
                <span class="sr-only"> {l.item.name}</span>
              </button>
            </li>
          ))}
        </ul>
      ) : (
        <p>{t('qr.cartEmpty')}</p>
      )}
      {!open ? (
        <div class="field">
          <label for="guest-name">{t('qr.yourName')}</label>
          <input id="guest-name" value={cart.name} maxLength={200} autoComplete="given-name" onInput={(e) => cart.setName((e.target as HTMLInputElement).value)} />
        </div>
      ) : null}
      {failure ? <p class="error-text" role="alert">{failure}</p> : null}
      <button type="button" class="btn btn-primary wide big" disabled={!lines.length || cart.sending} onClick={() => void cart.send()}>
        {cart.sending ? t('qr.sending') : `${open ? t('qr.addRound') : t('qr.place')}${quote ? ` · ${money(quote.subtotal, cur)}` : ''}`}
      </button>
    </Dialog>
  );
}

function ItemSheet({ item, currency, onClose, onAdd }: { item: Item | null; currency: string; onClose: () => void; onAdd: (l: CartLine) => void }) {
  // the dish's defaults ticked from the sheet's first frame, and nothing of the dish before
  const [{ picks, quantity, notes, problem, full }, set] = useFormFor(item?.id ?? null, () => ({
    picks: Object.fromEntries((item?.modifierGroups ?? []).map((g) => [g.id, g.modifiers.filter((m) => m.isDefault).map((m) => m.name).slice(0, g.maxSelections)])) as Record<string, string[]>,
    quantity: 1,
    notes: '',
    problem: null as string | null,
    full: null as { group: string; text: string } | null,
  }));
  if (!item) return <Dialog title="" open={false} onClose={onClose}>{null}</Dialog>;

  const chosen = item.modifierGroups.flatMap((g) => (picks[g.id] ?? []).map((n) => ({ groupId: g.id, group: g.name, name: n, priceAdjustment: g.modifiers.find((m) => m.name === n)?.priceAdjustment ?? 0 })));
  /** false when the tap is refused */
  const toggle = (g: Group, name: string): boolean => {
    const now = picks[g.id] ?? [];
    // a tick past the group's maximum is refused as it is tapped, and said beside the group
    if (g.maxSelections > 1 && !now.includes(name) && now.length >= g.maxSelections) {
      set({ full: { group: g.id, text: t('qr.maxReached', { n: g.maxSelections, group: g.name }) } });
      return false;
    }
    const next = g.maxSelections === 1 ? [name] : now.includes(name) ? now.filter((n) => n !== name) : [...now, name];
    set({ picks: { ...picks, [g.id]: next }, full: null, problem: null });
    return true;
  };
  const add = () => {
    // the bounds the server enforces, checked here first so the guest hears it before sending
    for (const g of item.modifierGroups) {
      const n = (picks[g.id] ?? []).length;
      const min = Math.max(g.minSelections, g.required ? 1 : 0);
      if (n < min) return set({ problem: t('qr.pickMin', { n: min, group: g.name }) });
      if (n > g.maxSelections) return set({ problem: t('qr.pickMax', { n: g.maxSelections, group: g.name }) });
    }
    onAdd({ item, quantity, picks: chosen, notes: notes.trim() });
  };
  const rule = (g: Group) => {
    const min = Math.max(g.minSelections, g.required ? 1 : 0);
    if (min === g.maxSelections) return t('qr.chooseExactly', { n: min });
    if (min > 0) return t('qr.chooseRange', { min, max: g.maxSelections });
    return t('qr.chooseUpTo', { n: g.maxSelections });
  };
  return (
    <Dialog title={item.name} open={true} onClose={onClose}>
      {item.imageUrl ? <img class="sheet-img" src={item.imageUrl} alt="" /> : null}
      {item.description ? <p>{item.description}</p> : null}
      {item.allergens.length ? <p class="menu-allergens">{t('qr.allergens', { list: item.allergens.join(', ') })}</p> : null}
      {item.modifierGroups.map((g) => (
        <fieldset key={g.id} class="mod-group">
          <legend>
            {g.name} <small>{g.required || g.minSelections > 0 ? `${t('qr.required')} · ` : ''}{rule(g)}</small>
          </legend>
          {g.modifiers.map((m) => (
            <label key={m.name} class="mod-option">
              <input
                type={g.maxSelections === 1 ? 'radio' : 'checkbox'}
                name={`g-${g.id}`}
                checked={(picks[g.id] ?? []).includes(m.name)}
                onChange={(e) => {
                  // a refused tick stays unticked (the browser has already ticked the box)
                  if (!toggle(g, m.name)) (e.target as HTMLInputElement).checked = false;
                }}
              />
              <span>{m.name}</span>
              {m.priceAdjustment ? <span class="muted">+{money(m.priceAdjustment, currency)}</span> : null}
            </label>
          ))}
          <p class="mod-note error-text" role="status" aria-live="polite">
            {full?.group === g.id ? full.text : ''}
          </p>
        </fieldset>
      ))}
      <div class="qty" role="group" aria-label={t('qr.quantity')}>
        <button type="button" class="btn" onClick={() => set({ quantity: Math.max(1, quantity - 1) })} aria-label={t('qr.less')}>
          −
        </button>
        <output aria-live="polite">{quantity}</output>
        <button type="button" class="btn" onClick={() => set({ quantity: Math.min(99, quantity + 1) })} aria-label={t('qr.more')}>
          +
        </button>
      </div>
      <div class="field">
        <label for="line-note">{t('qr.note')}</label>
        <textarea id="line-note" rows={2} maxLength={500} value={notes} onInput={(e) => set({ notes: (e.target as HTMLTextAreaElement).value })} />
      </div>
      {problem ? <p class="error-text" role="alert">{problem}</p> : null}
      <button type="button" class="btn btn-primary wide big" onClick={add}>
        {t('qr.addToCart')}
      </button>
    </Dialog>
  );
}
