/** Issued proof-of-work challenges, kept so a solved one is accepted once, from the IP it was issued to. Local. */
export interface CaptchaChallengesTable {
  /** the altcha challenge hash */
  id: string;
  ip: string;
  /** Unix seconds */
  expires_at: number;
  used_at: number | null;
  created: number;
}

declare module '../replication.ts' {
  /** local: this node's bookkeeping, outside the change log */
  interface LocalTables {
    captcha_challenges: true;
  }
}
