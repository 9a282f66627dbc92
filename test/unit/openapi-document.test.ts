import { describe, expect, it } from 'vitest';
import { endpoints } from '../../api/endpoints/index.js';
import { buildOpenApi } from '../../api/openapi/document.js';
import { loadConfig } from '../../shared/infra/config.js';

/*
 * The OpenAPI document is the contract clients generate code from: it changes only on purpose.
 * `docs/openapi.json` is the reviewed copy (default configuration); a change to a schema, a limit or
 * a description shows up as a diff of that file. After an intended change:
 * `npx vitest run test/unit/openapi-document.test.ts --update`.
 */
describe('OpenAPI document', () => {
  it('is exactly the reviewed copy in docs/openapi.json', async () => {
    const doc = buildOpenApi(loadConfig({}), endpoints).document;
    await expect(`${JSON.stringify(doc, null, 2)}\n`).toMatchFileSnapshot('../../docs/openapi.json');
  });
});
