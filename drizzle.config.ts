import { defineConfig } from 'drizzle-kit';

export default defineConfig({
  dialect: 'postgresql',
  schema: './shared/infra/db/schema/index.ts',
  out: './drizzle',
});
