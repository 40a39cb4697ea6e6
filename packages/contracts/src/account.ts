import { z } from 'zod';
import { optionalTextSchema as optionalText } from './common';
const requiredName = z.string().trim().min(1).max(100);

// GET /api/v1/account/details: the profile fields of SPEC §3.
export const accountDetailsSchema = z.object({
  FirstName: z.string(),
  LastName: z.string(),
  Email: z.string(),
  Address1: z.string(),
  Address2: z.string(),
  City: z.string(),
  State: z.string(),
  Zipcode: z.string(),
  Country: z.string(),
  CompanySize: z.string(),
  AnnualRevenue: z.string(),
  Industry: z.string(),
});
export type AccountDetails = z.infer<typeof accountDetailsSchema>;

// PUT /api/v1/account/details: first and last name required, the rest optional.
export const updateAccountDetailsSchema = z.object({
  FirstName: requiredName,
  LastName: requiredName,
  Address1: optionalText,
  Address2: optionalText,
  City: optionalText,
  State: optionalText,
  Zipcode: optionalText,
  Country: optionalText,
  CompanySize: optionalText,
  AnnualRevenue: optionalText,
  Industry: optionalText,
});
export type UpdateAccountDetails = z.input<typeof updateAccountDetailsSchema>;
