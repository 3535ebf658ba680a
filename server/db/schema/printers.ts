/** Tables of the printers feature: one line per `*.table.ts`. */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface PrintersTables {}
