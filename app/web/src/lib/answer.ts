import { useEffect, useState } from 'preact/hooks';
import { ApiFailure } from './api.ts';

/**
 * The hub's answer to a question that changes as the person types or taps (what a cart costs,
 * what a discount takes off), so the page shows the hub's figure and works out none. Asked
 * again whenever the question's `key` changes (no question: nothing to ask); an answer to an earlier question is
 * dropped, whichever comes back first, and null stands until the current one is answered.
 * With `retryMs`, a question the hub could not answer for now (no answer, 429, 5xx) is asked
 * again after it; a refusal stands until the question changes.
 */
export function useAnswer<T>(question: { key: string; ask: () => Promise<T> } | null, retryMs?: number): T | null {
  const key = question?.key ?? null;
  const [answer, setAnswer] = useState<{ key: string; value: T } | null>(null);
  const [attempt, setAttempt] = useState(0);
  useEffect(() => {
    if (!question) return;
    let latest = true;
    let retry: ReturnType<typeof setTimeout> | undefined;
    question.ask().then(
      (value) => latest && setAnswer({ key: question.key, value }),
      (err) => {
        if (!latest) return;
        setAnswer(null);
        const status = err instanceof ApiFailure ? err.status : 0;
        if (retryMs !== undefined && (status === 0 || status === 429 || status >= 500)) retry = setTimeout(() => setAttempt((n) => n + 1), retryMs);
      },
    );
    return () => {
      latest = false;
      clearTimeout(retry);
    };
  }, [key, attempt]);
  return answer && answer.key === key ? answer.value : null;
}
