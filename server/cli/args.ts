import { parseArgs } from 'node:util';

export type Flags = Record<string, string | boolean | undefined>;

export function readFlags(argv: string[], spec: Record<string, 'string' | 'boolean'>): Flags {
  const options = Object.fromEntries(Object.entries(spec).map(([k, type]) => [k, { type }])) as any;
  return parseArgs({ args: argv, options, allowPositionals: false, strict: true }).values as Flags;
}

export function out(flags: Flags, json: unknown, human: string): void {
  process.stdout.write(flags.json ? `${JSON.stringify(json)}\n` : `${human}\n`);
}

export class CliError extends Error {}
