/** Today's first-day checklist and the "what is missing" notes where a prerequisite bites, in English (the reference). */
export const firstDayEn = {
  'first.title': 'Before your first service',
  'first.progress': '{done} of {total} done',
  'first.hours': 'Set your opening hours',
  'first.menu': 'Add the dishes of your menu',
  'first.tables': 'Add your tables',
  'first.qr': 'Give every table its QR code and print the sheet',
  'first.printers': 'Set up a printer',
  'first.screen': 'Pair a kitchen screen',
  'first.staff': 'Add your staff',
  'first.waitlist': 'Switch on the online waitlist',
  'first.backups': 'Switch on backups',
  'first.cloud': 'Link this hub to the cloud',
  'first.done': 'Done',
  'first.todo': 'To do',
  'first.needHours': 'Set opening hours to take bookings.',
  'first.openHours': 'Opening hours',
};
export type FirstDayKey = keyof typeof firstDayEn;

