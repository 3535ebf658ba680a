/**
 * A guest link under a venue's former slug still opens its page (the API resolves it); the
 * address bar then shows the current one, so a shared or bookmarked link is the new one.
 */
export function showCurrentSlug(asked: string, current: string | undefined): void {
  if (!current || current === asked) return;
  history.replaceState(history.state, '', location.pathname.replace(`/r/${asked}/`, `/r/${current}/`) + location.search);
}
