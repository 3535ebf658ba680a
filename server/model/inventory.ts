/** Stock quantities are stored in thousandths (integers), shown as numbers. */
export const fromMilli = (m: number): number => Number(m) / 1000;
