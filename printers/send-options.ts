export interface SendOptions {
  /** ask the printer's real-time status (ESC/POS DLE EOT) before sending */
  queryStatus: boolean;
  connectTimeoutMs: number;
  statusTimeoutMs: number;
  /** the whole write, until the printer has taken every byte */
  writeTimeoutMs: number;
  /** how long to wait for the printer to close its side after ours */
  closeTimeoutMs: number;
  /**
   * Called once the printer reported ready, before the first document byte is written;
   * false aborts the send with nothing written (the sender lost its claim on the job).
   */
  beforeWrite?: () => Promise<boolean>;
}

export const DEFAULT_SEND_OPTIONS: SendOptions = {
  queryStatus: true,
  connectTimeoutMs: 3000,
  statusTimeoutMs: 2000,
  writeTimeoutMs: 15000,
  closeTimeoutMs: 2000,
};
