import QRCode from 'qrcode';
import { useState } from 'preact/hooks';
import { GET, getAll } from '../lib/client.ts';
import { t } from '../lib/i18n.ts';
import { Button, PageHeader, useLoad } from '../ui/kit.tsx';

interface Address {
  key: string;
  label: string;
  url: string;
}

/** One address in full, with Copy and a QR code on demand (a phone or tablet scans it instead of typing). */
function AddressRow({ a }: { a: Address }) {
  const [copied, setCopied] = useState(false);
  const [qr, setQr] = useState<string | null>(null);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(a.url);
      setCopied(true);
    } catch {
      // no clipboard on plain http: select the address for a manual copy
      (document.getElementById(`addr-${a.key}`) as HTMLInputElement | null)?.select();
    }
  };
  return (
    <li class="share-row" data-address={a.key}>
      <label for={`addr-${a.key}`}>{a.label}</label>
      <input id={`addr-${a.key}`} class="share-url" readOnly value={a.url} />
      <Button onClick={copy} aria-label={`${copied ? t('share.copied') : t('share.copy')}: ${a.label}`}>
        {copied ? t('share.copied') : t('share.copy')}
      </Button>
      <Button onClick={async () => setQr(qr ? null : await QRCode.toDataURL(a.url, { margin: 1, width: 240, errorCorrectionLevel: 'M' }))} aria-label={`${t('share.qr')}: ${a.label}`}>
        {t('share.qr')}
      </Button>
      {qr ? (
        <figure class="share-qr">
          <img src={qr} width={200} height={200} alt={t('share.qrAlt', { what: a.label })} />
          <figcaption>{a.url}</figcaption>
        </figure>
      ) : null}
    </li>
  );
}

/**
 * Share and connect: every address the venue hands out, in full — the hub on the LAN, the
 * guest waitlist and feedback pages, the screens, tablet pairing, each table's QR menu.
 */
export function SharePage() {
  const [data] = useLoad(async () => {
    const [health, settings, codes, tables] = await Promise.all([
      GET('/v1/system/health'),
      GET('/v1/settings'),
      getAll('/v1/qr_codes', { query: { is_active: true } }).catch(() => []),
      getAll('/v1/tables').catch(() => []),
    ]);
    // the hub's mDNS name while the LAN carries it (it survives the router handing the PC another
    // address), else its LAN address (a phone cannot reach "localhost")
    const stable = health.addresses?.stable_url ?? null;
    const base = (stable ?? health.urls?.find((u) => !/localhost|127\.0\.0\.1/.test(u)) ?? location.origin).replace(/\/$/, '');
    const out: Address[] = [
      ...(stable ? [{ key: 'hub-name', label: t('share.hub'), url: stable }] : []),
      ...(health.urls ?? []).map((u, i) => ({ key: `hub-${i}`, label: stable ? t('share.hubFallback') : t('share.hub'), url: u })),
    ];
    out.push(
      { key: 'waitlist', label: t('share.waitlist'), url: `${base}/r/${settings.slug}/waitlist` },
      { key: 'feedback', label: t('share.feedback'), url: `${base}/r/${settings.slug}/feedback` },
      { key: 'floor', label: t('share.floorScreen'), url: `${base}/screens/floor` },
      { key: 'expo', label: t('share.expoScreen'), url: `${base}/screens/expo` },
      { key: 'pair', label: t('share.pair'), url: health.pair_url ?? `${base}/screens/pair` },
    );
    const numbers = new Map(tables.map((x) => [x.id, x.number]));
    // in table order, as the floor numbers them (the codes come newest first)
    const tableCodes = codes.flatMap((c) => (c.table && numbers.has(c.table) ? [{ n: numbers.get(c.table)!, url: c.url }] : [])).sort((a, b) => a.n - b.n);
    for (const c of tableCodes) out.push({ key: `table-${c.n}`, label: t('share.table', { n: c.n }), url: c.url });
    return out;
  });
  return (
    <>
      <PageHeader title={t('share.title')}>
        <a class="btn" href="/app/floor/qr-sheet">
          {t('share.qrSheet')}
        </a>
      </PageHeader>
      <p class="hint">{t('share.hint')}</p>
      <ul class="plain-list share-list">{(data ?? []).map((a) => <AddressRow key={a.key} a={a} />)}</ul>
    </>
  );
}
