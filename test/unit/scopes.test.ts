import { describe, expect, it } from 'vitest';
import { isScope, scopes } from '../../shared/domain/auth/index.js';

describe('isScope', () => {
  it('knows exactly the scopes of the contract', () => {
    for (const s of scopes) expect(isScope(s), s).toBe(true);
    for (const s of ['', 'Tasks', 'tasks ', 'admin', 'listing']) expect(isScope(s), s).toBe(false);
  });
});
