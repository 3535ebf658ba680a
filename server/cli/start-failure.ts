import { CliError } from './args.ts';

/**
 * A start that fails for a reason the person starting comanda can fix says so in one sentence
 * (the port, the folder, what to do), not with Node's stack trace. The system's code stays in
 * brackets for whoever searches for it. Anything else is rethrown as it was.
 */
export function startFailure(err: unknown, where: { port: number; host: string; dataDir: string | null }): unknown {
  const code = (err as NodeJS.ErrnoException | null)?.code;
  const syscall = (err as NodeJS.ErrnoException | null)?.syscall;
  if (syscall === 'listen' || code === 'EADDRINUSE' || code === 'EADDRNOTAVAIL') {
    if (code === 'EADDRINUSE') return new CliError(`Port ${where.port} is already in use by another program (EADDRINUSE). Stop that program, or start comanda with --port <another port>.`);
    if (code === 'EACCES') return new CliError(`Port ${where.port} needs administrator rights on this system (EACCES). Start comanda with --port 8080 or another port above 1023.`);
    if (code === 'EADDRNOTAVAIL') return new CliError(`The address ${where.host} is not one of this computer's (EADDRNOTAVAIL). Start comanda with --host 0.0.0.0, or with one of its own addresses.`);
    return err;
  }
  if (where.dataDir && (code === 'EACCES' || code === 'EPERM' || code === 'EROFS')) {
    return new CliError(`The data folder ${where.dataDir} cannot be written by this user (${code}). Give this user write access to it, or start comanda with --data-dir <another folder>.`);
  }
  if (where.dataDir && code === 'ENOSPC') {
    return new CliError(`The disk holding the data folder ${where.dataDir} is full (ENOSPC). Free some space on it, or start comanda with --data-dir <a folder on another disk>.`);
  }
  if (where.dataDir && code === 'ENOTDIR') {
    return new CliError(`The data folder ${where.dataDir} is not a folder (ENOTDIR). Start comanda with --data-dir <a folder>.`);
  }
  return err;
}
