import { render } from 'preact';
import '../styles.css';
import './guest.css';
import { QrOrdering } from './qr.tsx';

/**
 * The guest's pages, for a phone and no sign-in: QR ordering (/qr/<token>). A page of its
 * own, so a guest loads none of the back office.
 */
function Guest() {
  const path = location.pathname.replace(/\/+$/, '');
  const qr = /^\/qr\/([A-Za-z0-9]+)$/.exec(path);
  if (qr) return <QrOrdering token={qr[1]} />;
  return (
    <main class="guest">
      <h1>comanda</h1>
    </main>
  );
}

render(<Guest />, document.getElementById('root')!);
