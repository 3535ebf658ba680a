import type { TransportConfig } from '../../printers/transport.ts';

/** A printer row's stations and transport, stored as JSON text. */
export const printerStations = (p: { stations: string }): string[] => JSON.parse(p.stations) as string[];
export const printerTransport = (p: { transport: string }): TransportConfig => JSON.parse(p.transport) as TransportConfig;
