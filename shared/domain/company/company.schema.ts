import { z } from 'zod';

export const companySchema = z.object({
  company_uid: z.string(),
  company_name: z.string(),
  email: z.string().nullable(),
  phone: z.string().nullable(),
  website: z.string().nullable(),
});
export type Company = z.infer<typeof companySchema>;
