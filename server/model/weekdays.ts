/**
 * The days of the week as the API and the stored settings name them, Monday first (opening
 * hours, menu availability). The one list: JavaScript's Sunday-first day numbers and the
 * analytics' labels are read through it.
 */
export const WEEKDAYS = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'] as const;
export type Weekday = (typeof WEEKDAYS)[number];

/** The weekday of a JavaScript day number (`getUTCDay()`: 0 = Sunday … 6 = Saturday). */
export const weekdayOfDayNumber = (day: number): Weekday => WEEKDAYS[(day + 6) % 7];
