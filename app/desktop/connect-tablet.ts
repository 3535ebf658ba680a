import QRCode from 'qrcode';

const escape = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/**
 * "Connect a tablet": browsers cannot browse mDNS, so a tablet is pointed at the hub by a
 * QR code and a short address to type, both leading to the pairing page. Rendered here as
 * a self-contained page (no script, no remote content) for a small window.
 */
export async function connectTabletPage(publicUrl: string, restaurantName: string | null, setupCode: string | null = null, fallbackUrl: string | null = null): Promise<string> {
  const pairUrl = `${publicUrl.replace(/\/+$/, '')}/screens/pair`;
  // the hub's mDNS name survives a new address, but not every tablet resolves .local names
  const fallback = fallbackUrl && fallbackUrl !== publicUrl ? `${fallbackUrl.replace(/\/+$/, '')}/screens/pair` : null;
  const svg = await QRCode.toString(pairUrl, { type: 'svg', errorCorrectionLevel: 'M', margin: 2 });
  const html = `<!doctype html><html><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:">
<title>Connect a tablet</title>
<style>body{font:16px system-ui,sans-serif;margin:24px;text-align:center;color:#222}svg{width:260px;height:260px}
code{display:block;font-size:18px;overflow-wrap:anywhere;word-break:break-all;padding:0 4px}.setup{background:#eef4ff;padding:8px;border-radius:6px}</style>
</head><body>
<h1>Connect a tablet${restaurantName ? ` to ${escape(restaurantName)}` : ''}</h1>
<p>On the tablet, join the venue's Wi-Fi, then scan this code with the camera:</p>
${svg}
<p>or open this address in its browser:</p>
<p><code>${escape(pairUrl)}</code></p>
${fallback ? `<p>If that does not open on the tablet, use the hub's address:</p>\n<p><code>${escape(fallback)}</code></p>` : ''}
${setupCode ? `<p class="setup">Setting up from another device? The back office asks for the setup code <b>${escape(setupCode)}</b>.</p>` : ''}
</body></html>`;
  return `data:text/html;charset=utf-8,${encodeURIComponent(html)}`;
}
