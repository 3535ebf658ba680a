import type { ComponentChildren } from 'preact';
import { t, type Key } from '../lib/i18n.ts';
import { Badge, Empty } from './kit.tsx';

/** A print job's state as a badge: failed in red, printed in green, anything else plain. */
export function JobState({ state }: { state: string }) {
  return <Badge tone={state === 'failed' ? 'bad' : state === 'printed' ? 'good' : 'neutral'}>{t(`printJob.${state}` as Key)}</Badge>;
}

/**
 * Print jobs one to a line, each with what it was and an action beside it (the printers page's
 * recent and failed jobs, an order's tickets); `empty` when there are none.
 */
export function JobList<J extends { id: string }>({ jobs, empty, line, action }: { jobs: J[] | null | undefined; empty: string; line: (j: J) => ComponentChildren; action: (j: J) => ComponentChildren }) {
  if (!jobs?.length) return <Empty>{empty}</Empty>;
  return (
    <ul class="plain-list">
      {jobs.map((j) => (
        <li key={j.id} class="job-line">
          <span>{line(j)}</span>
          {action(j)}
        </li>
      ))}
    </ul>
  );
}
