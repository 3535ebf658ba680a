/** When a ticket on a station's screen turns amber, then red, unless the station says otherwise (minutes). */
export const DEFAULT_WARN_MINUTES = 8;
export const DEFAULT_LATE_MINUTES = 15;
