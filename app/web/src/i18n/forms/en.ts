/**
 * The texts of the back office's shared table and form dialog (ui/data-table.tsx, ui/form-dialog.tsx):
 * a refused field's message in the reader's words, said next to the field whose label names it,
 * and the confirmations before a remove. English is the reference.
 */
export const formsEn = {
  'form.required': 'Required',
  'form.taken': 'Already used',
  'form.atLeast': 'Must be at least {min}',
  'form.atMost': 'Must be at most {max}',
  'form.between': 'Enter a number from {min} to {max}',
  'form.number': 'Enter a number',
  'form.email': 'Enter an email address, such as name@example.com',
  'form.url': 'Enter a full web address that starts with https://',
  'form.urlNotAllowed': 'Use a public https address: local and private addresses are not allowed',
  'form.host': 'Must be a hostname or an IP address',
  'form.tooLong': '{max, plural, one {At most # character} other {At most # characters}}',
  'form.tooShort': '{min, plural, one {At least # character} other {At least # characters}}',
  'form.amount': 'Enter an amount, such as 12.50',
  'form.percent': 'Enter a percentage from 0 to 100',
  'form.invalid': 'Check this value',
  'form.refused': 'This could not be saved: one of the values was refused. Check the form and try again.',
  'form.removeItem': '{name} leaves the menu and can no longer be ordered. You can bring it back with “Show removed items”.',
  'form.removeTableNamed': 'Remove table {n}?',
  'form.removeTable': 'Table {n} and its QR code stop working. Past orders keep their table.',
  'form.deactivateNamed': 'Deactivate {name}?',
  'form.deactivateBody': '{name} can no longer sign in, and their devices are signed out.',
  'col.item': 'Item',
  'col.details': 'Details',
  'col.when': 'When',
  'col.table': 'Table',
  'col.qr': 'QR code',
  'col.printer': 'Printer',
  'col.address': 'Address and stations',
  'col.status': 'Status',
  'col.url': 'Address',
  'col.events': 'Events',
};

export type FormsKey = keyof typeof formsEn;
