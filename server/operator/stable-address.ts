import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Kysely } from 'kysely';
import type { DB } from '../db/schema.ts';
import { lanAddresses, urlFor } from './lan.ts';
import type { Advertisement, Advertiser } from './mdns.ts';

type Interfaces = ReturnType<typeof os.networkInterfaces>;

/** The address QR codes and links were last made with, kept in the data dir across restarts. */
export interface KnownAddress {
  address: string;
  public_url: string;
  at: number;
}

/** The base printed codes were made with no longer reaches the hub (its IP moved, or its name is no longer announced). */
export interface AddressChange {
  from: string;
  to: string;
  at: number;
  /** the base URL the codes were made with: an IP literal one stopped working with the move */
  old_public_url: string;
  /** whether the old base was an IP address (else a name no longer announced: the slug changed, or mDNS stopped) */
  codes_embed_ip: boolean;
}

export const ADDRESS_FILE = 'lan-address.json';

/** The IPv4 address tablets and QR codes use (lan.ts ranks them), null when the PC has none. */
export function currentLanAddress(interfaces: Interfaces): string | null {
  return lanAddresses(interfaces).find((a) => a.family === 'IPv4')?.address ?? null;
}

const isIpLiteral = (host: string) => /^\d{1,3}(\.\d{1,3}){3}$/.test(host) || host.startsWith('[');

function readKnown(file: string | null): KnownAddress | null {
  if (!file) return null;
  try {
    const k = JSON.parse(fs.readFileSync(file, 'utf8'));
    return typeof k?.address === 'string' && typeof k?.public_url === 'string' ? k : null;
  } catch {
    return null;
  }
}

export interface StableAddressOptions {
  port: number;
  /** the operator's own publicUrl, never replaced; null when the hub chooses it */
  configuredPublicUrl: string | null;
  interfaces?: () => Interfaces;
  /** null: no announcement (mDNS off, or a hub bound to loopback) */
  advertiser: Advertiser | null;
  advertisement: Advertisement | null;
  /** where the last acknowledged address is kept; null keeps it in memory only */
  dataDir: string | null;
  now(): number;
  /** the URL codes are made with changed (the server's config.publicUrl follows it) */
  onPublicUrl?(url: string): void;
}

/**
 * The address QR codes, pairing links and the Share page use, and whether it moved. The hub's
 * mDNS name (`<slug>.local`) survives the router handing the PC another address; where the LAN
 * does not carry the announcement, the IP is the fallback, and it follows the PC's address.
 * A move away from the address the codes were made with is kept until the owner says the codes
 * embedding it are reprinted (acknowledge()).
 */
export class StableAddress {
  /** the URL codes are made with now */
  publicUrl: string;
  /** `http://<slug>.local:<port>` while announced, else null */
  stableUrl: string | null = null;
  lanAddress: string | null;
  change: AddressChange | null = null;
  private readonly file: string | null;
  private readonly interfaces: () => Interfaces;

  constructor(private readonly o: StableAddressOptions) {
    this.interfaces = o.interfaces ?? (() => os.networkInterfaces());
    this.file = o.dataDir ? path.join(o.dataDir, ADDRESS_FILE) : null;
    this.lanAddress = currentLanAddress(this.interfaces());
    this.publicUrl = o.configuredPublicUrl ?? urlFor(this.lanAddress ?? '127.0.0.1', o.port);
  }

  private setUrl(url: string) {
    if (url === this.publicUrl) return;
    this.publicUrl = url;
    this.o.onPublicUrl?.(url);
  }

  /** Announces the name; the URL becomes the name's once the LAN carries it. Then compares with the last known address. */
  async start(): Promise<void> {
    if (this.o.advertiser && this.o.advertisement) {
      const up = await this.o.advertiser.start(this.o.advertisement).catch(() => false);
      if (up) this.stableUrl = urlFor(this.o.advertisement.host, this.o.port);
    }
    if (!this.o.configuredPublicUrl && this.stableUrl) this.setUrl(this.stableUrl);
    this.check();
  }

  /** Looks at the PC's address again (every minute, and at start): a move is recorded and the IP fallback follows it. */
  check(): AddressChange | null {
    const now = currentLanAddress(this.interfaces());
    // the name's address records are made at announcement: a move announces them again
    if (now && now !== this.lanAddress && this.stableUrl) void this.reannounce();
    if (now) this.lanAddress = now;
    if (!this.o.configuredPublicUrl && !this.stableUrl) this.setUrl(urlFor(this.lanAddress ?? '127.0.0.1', this.o.port));
    const known = readKnown(this.file) ?? this.known;
    if (!known) {
      if (now) this.remember(now, this.publicUrl);
      return null;
    }
    if (!now) return this.change;
    // Codes made with the known base still open when that base still reaches this hub: the same
    // IP, the name still announced, or the operator's own URL. The record keeps the oldest base
    // codes were made with (codes printed with the IP before the name was announced still carry
    // it) until the owner reprinted them.
    const host = new URL(known.public_url).hostname.replace(/^\[|\]$/g, '');
    const stableHost = this.stableUrl ? new URL(this.stableUrl).hostname : null;
    const stillReaches = isIpLiteral(host) ? host === now : host === stableHost || known.public_url === this.o.configuredPublicUrl;
    if (stillReaches) {
      this.change = null;
      if (known.address !== now) this.remember(now, known.public_url);
      return null;
    }
    const to = isIpLiteral(host) ? now : new URL(this.publicUrl).hostname;
    this.change ??= { from: isIpLiteral(host) ? known.address : host, to, at: this.o.now(), old_public_url: known.public_url, codes_embed_ip: isIpLiteral(host) };
    this.change.to = to;
    return this.change;
  }

  /** The owner reprinted the codes: the current address becomes the one they are made with. */
  acknowledge(): void {
    this.change = null;
    if (this.lanAddress) this.remember(this.lanAddress, this.publicUrl);
  }

  private async reannounce() {
    if (!this.o.advertiser || !this.o.advertisement) return;
    const up = await this.o.advertiser.start(this.o.advertisement).catch(() => false);
    if (!up) {
      // the name went quiet: codes made from now on carry the address again
      this.stableUrl = null;
      if (!this.o.configuredPublicUrl) this.setUrl(urlFor(this.lanAddress ?? '127.0.0.1', this.o.port));
    }
  }

  stop(): Promise<void> {
    return this.o.advertiser?.stop() ?? Promise.resolve();
  }

  private known: KnownAddress | null = null;
  private remember(address: string, publicUrl: string) {
    this.known = { address, public_url: publicUrl, at: this.o.now() };
    if (!this.file) return;
    try {
      fs.writeFileSync(this.file, JSON.stringify(this.known));
    } catch {
      // an unwritable data dir is reported by the start itself; a lost record only means a move goes unnoticed
    }
  }
}

/**
 * The codes that embed the old address: every active QR code (by table number or label) made
 * before the move (one made since was printed with the new address).
 */
export async function codesToReprint(db: Kysely<DB>, restaurantId: string, movedAtMs: number): Promise<{ id: string; label: string }[]> {
  const rows = await db
    .selectFrom('qr_codes')
    .leftJoin('tables', 'tables.id', 'qr_codes.table_id')
    .select(['qr_codes.id', 'qr_codes.label', 'qr_codes.type', 'tables.number'])
    .where('qr_codes.restaurant_id', '=', restaurantId)
    .where('qr_codes.is_active', '=', 1)
    .where('qr_codes.created', '<=', Math.floor(movedAtMs / 1000))
    .orderBy('qr_codes.created')
    .orderBy('qr_codes.id')
    .execute();
  // tables by number, then the rest (the dialects place NULLs differently)
  rows.sort((a, b) => (a.number ?? Infinity) - (b.number ?? Infinity));
  return rows.map((r) => ({ id: r.id, label: r.label ?? (r.number !== null ? `Table ${r.number}` : r.type === 'takeout' ? 'Takeout' : 'QR code') }));
}
