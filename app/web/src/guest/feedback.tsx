import { useEffect, useState } from 'preact/hooks';
import { ApiFailure } from '../lib/api.ts';
import { GET, POST } from '../lib/client.ts';
import { t } from '../lib/i18n.ts';
import { withBotCheck } from './bot-check.ts';
import { guestLanguage } from './language.ts';
import { showCurrentSlug } from './slug.ts';

/** /r/<slug>/feedback: stars and a comment (`?order=` links it to an order), then thanks. */
export function Feedback({ slug }: { slug: string }) {
  const [name, setName] = useState<string | null>(null);
  const [rating, setRating] = useState(0);
  const [comment, setComment] = useState('');
  const [done, setDone] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    guestLanguage(undefined);
    // the venue's name, when its waitlist page answers (the feedback form works without it)
    GET('/public/restaurants/{slug}/waitlist', { path: { slug } }).then((p) => {
      setName(p.restaurant.name);
      showCurrentSlug(slug, p.restaurant.slug);
    }, () => {});
  }, [slug]);
  const send = async (e: Event) => {
    e.preventDefault();
    if (!rating) return setError(t('fb.pick'));
    setBusy(true);
    setError(null);
    try {
      const orderId = new URLSearchParams(location.search).get('order');
      await withBotCheck((captchaToken) =>
        POST('/public/restaurants/{slug}/feedback', { path: { slug }, body: { rating, comment: comment.trim() || undefined, ...(orderId ? { orderId } : {}), ...(captchaToken ? { captchaToken } : {}) } }),
      );
      setDone(true);
    } catch (err) {
      setError(err instanceof ApiFailure ? err.message : String(err));
    } finally {
      setBusy(false);
    }
  };
  return (
    <main class="guest">
      <header class="guest-head">
        {name ? <p>{name}</p> : null}
        <h1>{done ? t('fb.thanks') : t('fb.title')}</h1>
      </header>
      {done ? null : (
        <form onSubmit={send} class="guest-form">
          <fieldset class="stars">
            <legend>{t('fb.rating')}</legend>
            {[1, 2, 3, 4, 5].map((n) => (
              <label key={n} class={`star ${n <= rating ? 'on' : ''}`}>
                <input type="radio" name="rating" value={n} checked={rating === n} onChange={() => setRating(n)} class="sr-only" />
                <span aria-hidden="true">★</span>
                <span class="sr-only">{t('fb.stars', { n })}</span>
              </label>
            ))}
          </fieldset>
          <div class="field">
            <label for="fb-comment">{t('fb.comment')}</label>
            <textarea id="fb-comment" rows={4} maxLength={2000} value={comment} onInput={(e) => setComment((e.target as HTMLTextAreaElement).value)} />
          </div>
          {error ? <p class="error-text" role="alert">{error}</p> : null}
          <button type="submit" class="btn btn-primary wide big" disabled={busy}>
            {t('fb.send')}
          </button>
        </form>
      )}
    </main>
  );
}
