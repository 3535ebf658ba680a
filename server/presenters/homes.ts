import { z } from 'zod';
import { named, unix } from '../model/schemas.ts';
import { SessionSchema, type Session } from './auth.ts';

/** Where a staff device may work (docs/contributors/two-homes.md). */
export const HomesSchema = named(
  'Homes',
  z.object({
    object: z.literal('homes'),
    role: z.enum(['hub', 'cloud']).describe('which home answered'),
    cloud_url: z.string().nullable().describe("the linked cloud's address, where devices carry on when the hub stops; null when the hub is not linked (and on the cloud)"),
    hub_caught_up: z
      .boolean()
      .nullable()
      .describe('on the hub: its sync is connected and it has pulled everything the cloud holds, so devices that worked through the cloud may come back; null on the cloud'),
    hub_answering: z.boolean().nullable().describe('on the cloud: the linked hub was heard from lately; null on the hub'),
  }),
);
export type Homes = z.output<typeof HomesSchema>;

export const presentHomes = (h: { role: 'hub' | 'cloud'; cloudUrl: string | null; hubCaughtUp: boolean | null; hubAnswering: boolean | null }): Homes => ({
  object: 'homes',
  role: h.role,
  cloud_url: h.cloudUrl,
  hub_caught_up: h.hubCaughtUp,
  hub_answering: h.hubAnswering,
});

/** What a guest's page may know: only the cloud's public origin (docs/contributors/two-homes.md, guests). */
export const PublicHomesSchema = named(
  'PublicHomes',
  z.object({
    object: z.literal('public_homes'),
    cloud_url: z.string().nullable().describe("the linked cloud's public origin, where an open guest page carries on when the hub stops; null when the hub is not linked (and on the cloud)"),
    hub_caught_up: z.boolean().nullable().describe('on the hub: it has pulled everything the cloud holds, so a guest page that worked through the cloud may come back; null on the cloud'),
  }),
);

export const presentPublicHomes = (h: { cloudUrl: string | null; hubCaughtUp: boolean | null }): z.output<typeof PublicHomesSchema> => ({
  object: 'public_homes',
  // the origin alone: a path or a query in the link's address is nobody's business on a guest's phone
  cloud_url: h.cloudUrl === null ? null : new URL(h.cloudUrl).origin,
  hub_caught_up: h.hubCaughtUp,
});

export const CloudPassSchema = named(
  'CloudPass',
  z.object({
    object: z.literal('cloud_pass'),
    pass: z.string().describe('traded once at the cloud (POST /v1/auth/cloud_pass/redeem) for this person’s service session there; never shown'),
    cloud_url: z.string(),
    expires: unix(),
  }),
);

export const presentCloudPass = (p: { pass: string; cloudUrl: string; expires: number }): z.output<typeof CloudPassSchema> => ({
  object: 'cloud_pass',
  pass: p.pass,
  cloud_url: p.cloudUrl,
  expires: p.expires,
});

export const CloudSessionSchema = named(
  'CloudSession',
  z.object({
    object: z.literal('cloud_session'),
    token: z.string().describe('send it as X-Session-Token on every request to the cloud, and as {"type":"auth","session_token"} on /realtime'),
    session: SessionSchema,
  }),
);

export const presentCloudSession = (token: string, session: Session): z.output<typeof CloudSessionSchema> => ({ object: 'cloud_session', token, session });
