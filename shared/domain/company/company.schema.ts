import { z } from 'zod';

export const companySchema = z.object({
  company_uid: z.string(),
  company_name: z.string(),
  company_location: z.string().nullable().describe('Free-text location (city, region); null where unknown'),
  company_country: z.string().nullable().describe('Country code; null where unknown'),
  contact_name: z.string().nullable(),
  contact_email: z.string().nullable().describe('The company e-mail address'),
  contact_phone: z.string().nullable().describe('The company phone number'),
  email: z.string().nullable(),
  phone: z.string().nullable(),
  website: z.string().nullable(),
});
export type Company = z.infer<typeof companySchema>;
