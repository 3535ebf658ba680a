/** Whether a bundled part in outDir was made from the sources, settings and package versions now on disk (build.mjs). */
export function isFresh(part: 'hub' | 'desktop', outDir?: string): boolean;
