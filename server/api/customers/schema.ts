import { z } from 'zod';
import { f } from '../../model/fields.ts';
import { listParams } from '../../http/query.ts';

const fields = {
  name: f.name().nullable(),
  email: z.string().trim().max(254).pipe(z.email('must be an email address')).nullable(),
  phone: z.string().trim().min(1).max(40).nullable(),
};

export const CreateCustomer = z.object(fields).partial();
export const UpdateCustomer = z.object(fields).partial();
export const ListCustomers = z.object(listParams());
