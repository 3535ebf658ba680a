import { ApiFailure } from '../lib/api.ts';
import { t } from '../lib/i18n.ts';
import { can } from '../lib/session.ts';
import { homeOf, NAV } from '../ui/shell.tsx';

/**
 * Whether this browser holds a tablet's PIN trust (the hub sets a page-readable hint beside its
 * cookie, which the page cannot read): a tablet without it is not asked who may sign in, whose
 * answer would be a 401 in the console of every fresh tablet.
 */
export const pinTabletHint = () => document.cookie.split(/;\s*/).some((c) => c === 'comanda_pin_tablet=1');

/** The back office, one tap from service mode, for a role with a page there besides Service. */
export const maySeeBackOffice = () => NAV.some((n) => n.path !== '/app/service' && can(n.scope));
export const backOfficeHome = () => (homeOf() === '/app/service' ? '/app/orders' : homeOf());

/**
 * Sends a round; a line whose dish was 86'd meanwhile is refused by the API (all or nothing, by
 * design: `menu_item_unavailable`, its place in `items[i]`), so the round goes again without it.
 * The rest reaches the kitchen; the refused lines come back by key with the API's sentence.
 */
export async function sendAround<D extends { key: number }, O>(round: D[], send: (lines: D[]) => Promise<O>): Promise<{ order: O | null; refused: Map<number, string> }> {
  const refused = new Map<number, string>();
  let left = round;
  while (left.length) {
    try {
      return { order: await send(left), refused };
    } catch (e) {
      const at = e instanceof ApiFailure && e.code === 'menu_item_unavailable' ? /^items\[(\d+)\]/.exec(e.param ?? '') : null;
      const line = at ? left[Number(at[1])] : undefined;
      if (!line) throw e;
      refused.set(line.key, (e as ApiFailure).message);
      left = left.filter((x) => x !== line);
    }
  }
  return { order: null, refused };
}

const KEYS = ['1', '2', '3', '4', '5', '6', '7', '8', '9', 'clear', '0', 'back'] as const;

/** Big keys for a PIN (the field above takes a keyboard's digits too). */
export function PinPad({ value, onChange }: { value: string; onChange: (v: string) => void }) {
  return (
    <div class="pin-pad" role="group" aria-label={t('service.pin.pad')}>
      {KEYS.map((k) => (
        <button
          key={k}
          type="button"
          class="btn pin-key"
          aria-label={k === 'clear' ? t('service.pin.clear') : k === 'back' ? t('service.pin.back') : undefined}
          onClick={() => onChange(k === 'clear' ? '' : k === 'back' ? value.slice(0, -1) : (value + k).slice(0, 6))}
        >
          {k === 'clear' ? 'C' : k === 'back' ? '⌫' : k}
        </button>
      ))}
    </div>
  );
}
