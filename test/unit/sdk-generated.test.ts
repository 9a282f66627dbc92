import { describe, expect, it } from 'vitest';
import { endpoints } from '../../api/endpoints/index.js';
import { buildOpenApi } from '../../api/openapi/document.js';
import { loadConfig } from '../../shared/infra/config.js';
import { generateSchemaTypes } from '../../sdk/generate.js';

/*
 * The SDK's types are generated from the OpenAPI document, never edited: they must be what
 * openapi-typescript makes of the document the endpoint definitions build now (the one
 * openapi-document.test.ts compares with docs/openapi.json). After an intended change of an
 * endpoint: `npx vitest run test/unit/openapi-document.test.ts test/unit/sdk-generated.test.ts --update`
 * (or `npm run sdk:generate` once docs/openapi.json is current).
 */
describe('SDK types', () => {
  it('are exactly what regenerating them from the document makes (sdk/schema.d.ts)', async () => {
    const doc = buildOpenApi(loadConfig({}), endpoints).document;
    await expect(await generateSchemaTypes(doc)).toMatchFileSnapshot('../../sdk/schema.d.ts');
  });
});
