/** The electron-builder command line of `npm run desktop:dist` (desktop-dist.mjs). */
export function builderArgs(args: string[], env?: NodeJS.ProcessEnv): string[];
