import { defineConfig } from 'drizzle-kit';

export default defineConfig({
  dialect: 'postgresql',
  schema: './shared/infra/db/schema.ts',
  out: './drizzle',
});
