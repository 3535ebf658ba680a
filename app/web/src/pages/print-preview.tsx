import '../paper.css';
import { ApiFailure } from '../lib/api.ts';
import { t } from '../lib/i18n.ts';
import { Dialog, ErrorNote, Loading, useLoad } from '../ui/kit.tsx';

/**
 * The paper of a print job: the hub's drawing of it at its printer's width
 * (GET /v1/print_jobs/{id}/preview, an SVG), as an image. An image runs nothing, so a dish's
 * name can never become markup in the page.
 */
async function previewUrl(jobId: string): Promise<string> {
  let res: Response;
  try {
    res = await fetch(`/v1/print_jobs/${encodeURIComponent(jobId)}/preview`, { credentials: 'same-origin', headers: { Accept: 'image/svg+xml' } });
  } catch {
    throw new ApiFailure(0, 'network', 'The hub cannot be reached. Check the network.', null);
  }
  if (!res.ok) {
    const e = ((await res.json().catch(() => null)) as { error?: { code?: string; message?: string; param?: string } } | null)?.error ?? {};
    throw new ApiFailure(res.status, e.code ?? 'unknown', e.message ?? res.statusText, e.param ?? null);
  }
  return `data:image/svg+xml;charset=utf-8,${encodeURIComponent(await res.text())}`;
}

/** A dialog showing a job as it prints (or would: a virtual printer's jobs print nowhere). */
export function PrintPreviewDialog({ job, title, onClose }: { job: { id: string }; title: string; onClose: () => void }) {
  const [url, error] = useLoad(() => previewUrl(job.id), [job.id]);
  return (
    // kit: a Dialog, not a FormDialog: a preview of the paper, no form
    <Dialog title={title} open onClose={onClose}>
      <ErrorNote error={error} />
      <div class="paper-preview">{url ? <img src={url} alt={t('ops.printJobs.previewAlt', { title })} /> : error ? null : <Loading />}</div>
    </Dialog>
  );
}
