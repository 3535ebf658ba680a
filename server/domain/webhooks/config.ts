import type { Config } from '../../config.ts';

export interface WebhooksConfig {
  allowPrivateTargets: boolean;
  /** sandbox endpoints may target private addresses too (a developer's own hub); off by default */
  sandboxPrivateTargets: boolean;
  /** cloud: only https endpoints */
  httpsOnly: boolean;
  timeoutMs: number;
  /** how long a claim holds a delivery; a holder that died frees it after this */
  leaseMs: number;
  maxParallel: number;
  perEndpointConcurrency: number;
  eventRetentionDays: number;
}

/** The operator's webhook settings with the role's defaults filled in. */
export function webhooksConfig(config: Config): WebhooksConfig {
  const w = config.webhooks ?? {};
  const cloud = config.role === 'cloud';
  const timeoutMs = w.timeoutMs ?? 15_000;
  return {
    allowPrivateTargets: w.allowPrivateTargets ?? !cloud,
    sandboxPrivateTargets: w.sandboxPrivateTargets ?? false,
    httpsOnly: cloud,
    timeoutMs,
    leaseMs: w.leaseMs ?? timeoutMs + 60_000,
    maxParallel: w.maxParallel ?? 64,
    perEndpointConcurrency: w.perEndpointConcurrency ?? 16,
    eventRetentionDays: w.eventRetentionDays ?? 30,
  };
}
