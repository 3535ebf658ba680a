import type { Migration } from 'kysely';
import * as m0001 from './0001_foundation.ts';
import * as m0002 from './0002_change_log_by_table.ts';
import * as m0003 from './0003_server_processes.ts';

import * as m0100 from './0100_orders.ts';

import * as m0200 from './0200_reservations.ts';

import * as m0300 from './0300_guest.ts';
import * as m0301 from './0301_waitlist_one_place.ts';
import * as m0302 from './0302_service_secrets.ts';
import * as m0303 from './0303_waitlist_lang.ts';
import * as m0304 from './0304_guest_message_lease.ts';

import * as m0400 from './0400_webhooks.ts';

import * as m0500 from './0500_analytics.ts';

import * as m0600 from './0600_realtime.ts';

import * as m0700 from './0700_printers.ts';
import * as m0701 from './0701_print_jobs_list.ts';
import * as m0702 from './0702_print_job_revisions.ts';
import * as m0703 from './0703_print_job_versions.ts';

import * as m0800 from './0800_sync.ts';

import * as m0900 from './0900_staff_sessions.ts';
import * as m1000 from './1000_hub_settings.ts';

import * as m1100 from './1100_screens.ts';

import * as m1400 from './1400_sync_resolutions.ts';
import * as m1510 from './1510_pairing_guards.ts';

import * as m1600 from './1600_order_seat_course.ts';
import * as m1601 from './1601_service.ts';

import * as m1700 from './1700_payments.ts';
import * as m1900 from './1900_sync_repair.ts';
import * as m2000 from './2000_waitlist_table.ts';
import * as m2001 from './2001_staff_email_optional.ts';
import * as m2050 from './2050_former_slugs.ts';
import * as m2051 from './2051_item_station_and_station_order.ts';
import * as m2100 from './2100_webhook_sent_by.ts';
import * as m2900 from './2900_line_sender.ts';
import * as mT20261128_2340 from './T20261128-2340_payment_item_shares.ts';
import * as mT20261128_2345 from './T20261128-2345_two_homes.ts';
import * as mT20261129_0430 from './T20261129-0430_print_job_lines.ts';
import * as m2150 from './2150_order_merge.ts';
import * as m2200 from './2200_device_keys.ts';
import * as m2201 from './2201_auth_failures.ts';
import * as m2300 from './2300_log_clocks.ts';
import * as m2510 from './2510_change_log_origin_pos.ts';
import * as m2620 from './2620_service_tablets.ts';
import * as m2670 from './2670_menu_mix_net.ts';
import * as m2700 from './2700_money_ties_out.ts';
import * as m2750 from './2750_order_covers.ts';

/**
 * Every migration, by name; applied in the names' string order. A new one is named for the time
 * it was written, T<yyyymmdd>-<hhmm>_what (UTC), which sorts after every numbered name of before;
 * the numbered names never change, since databases record them (docs/contributors/architecture.md).
 */
export const migrations: Record<string, Migration> = {
  '0001_foundation': m0001,
  '0002_change_log_by_table': m0002,
  '0003_server_processes': m0003,

  '0100_orders': m0100,

  '0200_reservations': m0200,

  '0300_guest': m0300,
  '0301_waitlist_one_place': m0301,
  '0302_service_secrets': m0302,
  '0303_waitlist_lang': m0303,
  '0304_guest_message_lease': m0304,

  '0400_webhooks': m0400,

  '0500_analytics': m0500,

  '0600_realtime': m0600,

  '0700_printers': m0700,
  '0701_print_jobs_list': m0701,
  '0702_print_job_revisions': m0702,
  '0703_print_job_versions': m0703,

  '0800_sync': m0800,

  '0900_staff_sessions': m0900,
  '1000_hub_settings': m1000,

  '1100_screens': m1100,

  '1400_sync_resolutions': m1400,

  '1510_pairing_guards': m1510,
  '1600_order_seat_course': m1600,
  '1601_service': m1601,

  '1700_payments': m1700,
  '1900_sync_repair': m1900,
  '2000_waitlist_table': m2000,
  '2001_staff_email_optional': m2001,
  '2050_former_slugs': m2050,
  '2051_item_station_and_station_order': m2051,
  '2100_webhook_sent_by': m2100,
  '2150_order_merge': m2150,
  '2200_device_keys': m2200,
  '2201_auth_failures': m2201,
  '2300_log_clocks': m2300,
  '2510_change_log_origin_pos': m2510,
  '2620_service_tablets': m2620,
  '2670_menu_mix_net': m2670,
  '2700_money_ties_out': m2700,
  '2750_order_covers': m2750,
  '2900_line_sender': m2900,
  'T20261128-2340_payment_item_shares': mT20261128_2340,
  'T20261128-2345_two_homes': mT20261128_2345,
  'T20261129-0430_print_job_lines': mT20261129_0430,
};
