/**
 * The supervisor that started this server, when one did (the desktop app): Node's IPC
 * channel of child_process.fork (the app from a checkout, tests), or the port Electron gives
 * a utility process (the packaged app). Status reports go up it, a shutdown request comes
 * down it.
 */
export interface ParentChannel {
  send(message: unknown): void;
  /** sends and resolves once the message is on its way (a process about to exit waits for it) */
  sendNow(message: unknown): Promise<void>;
  onMessage(listener: (message: unknown) => void): void;
  /**
   * The parent went away (it crashed or was killed): nobody will ask for a stop, and the
   * hub must not keep the data dir's lock and the port. Node's IPC says so ('disconnect');
   * a utility process needs no notice: Chromium ends it with the app's main process.
   */
  onGone(listener: () => void): void;
}

interface UtilityParentPort {
  postMessage(message: unknown): void;
  on(event: 'message', listener: (event: { data: unknown }) => void): void;
}

export function parentChannel(proc: NodeJS.Process = process): ParentChannel | null {
  const port = (proc as NodeJS.Process & { parentPort?: UtilityParentPort }).parentPort;
  if (port) {
    return {
      send: (m) => port.postMessage(m),
      // postMessage hands the message over before it returns
      sendNow: async (m) => port.postMessage(m),
      onMessage: (listener) => port.on('message', (e) => listener(e.data)),
      onGone: () => {},
    };
  }
  if (!proc.send) return null;
  return {
    // once the parent is gone a send would fail: reports simply stop
    send: (m) => void (proc.connected && proc.send?.(m)),
    sendNow: (m) =>
      new Promise<void>((resolve) => {
        if (!proc.connected || !proc.send) return resolve();
        proc.send(m, undefined, {}, () => resolve());
      }),
    onMessage: (listener) => proc.on('message', listener),
    onGone: (listener) => proc.on('disconnect', listener),
  };
}
