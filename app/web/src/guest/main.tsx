import { render } from 'preact';
import { screensTexts } from '../i18n/screens/index.ts';
import { addDictionaries } from '../lib/i18n.ts';
import '../styles.css';
import './guest.css';
import { Feedback } from './feedback.tsx';
import { QrOrdering } from './qr.tsx';
import { WaitlistJoin, WaitlistStatus } from './waitlist.tsx';

// the screens' texts in all five languages (this page's only ones)
addDictionaries(screensTexts);

/**
 * The guest's pages, for a phone and no sign-in: QR ordering (/qr/<token>), the waitlist (/r/<slug>/waitlist,
 * /waitlist/<token>) and feedback (/r/<slug>/feedback). A page of its
 * own, so a guest loads none of the back office.
 */
function Guest() {
  const path = location.pathname.replace(/\/+$/, '');
  const qr = /^\/qr\/([A-Za-z0-9]+)$/.exec(path);
  if (qr) return <QrOrdering token={qr[1]} />;
  const join = /^\/r\/([\w-]+)\/waitlist$/.exec(path);
  if (join) return <WaitlistJoin slug={join[1]} />;
  const place = /^\/waitlist\/([\w.-]+)$/.exec(path);
  if (place) return <WaitlistStatus token={place[1]} />;
  const feedback = /^\/r\/([\w-]+)\/feedback$/.exec(path);
  if (feedback) return <Feedback slug={feedback[1]} />;
  return (
    <main class="guest">
      <h1>comanda</h1>
    </main>
  );
}

render(<Guest />, document.getElementById('root')!);
