import { ApiError } from '../server/errors.ts';
import type { Services } from '../server/services.ts';
import { callCloud, credentialOf, readLink, Refused } from './hub.ts';
import { PROTOCOL_VERSION } from './protocol.ts';

/**
 * A linked hub's new guest address (slug) must be unique across the cloud, which the hub
 * cannot see: the cloud renames first, and the hub renames only once it has (issue 40). Offline,
 * the rename is refused: the old links keep working meanwhile. An unlinked hub checks only
 * its own database (it is the only one).
 */
export async function claimSlugOnCloud(services: Services, slug: string): Promise<void> {
  const link = await readLink(services.db);
  if (!link) return;
  try {
    await callCloud(link.cloud_url, '/slug', { protocol: PROTOCOL_VERSION, slug }, { credential: credentialOf(services, link), timeoutMs: 15_000 });
  } catch (err) {
    if (err instanceof Refused && (err.code === 'resource_conflict' || err.code === 'parameter_invalid')) throw new ApiError(err.code, err.message, 'slug');
    throw new ApiError('service_unavailable', 'Changing the guest address needs the cloud, which keeps addresses unique across restaurants, and it cannot be reached now. Try again once the hub is online.');
  }
}
