import { expandScopes, hasScopes, scopesBeyond } from '../../shared/domain/auth/scopes';

describe('scopes', () => {
  it('apis.all covers every scope, reads and writes', () => {
    expect(hasScopes(['apis.all'], ['transactions.write', 'invoices.read', 'apis.read'])).toBe(true);
  });

  it('apis.read covers every read and no write', () => {
    expect(hasScopes(['apis.read'], ['transactions.read', 'inbox.read', 'reports.read'])).toBe(true);
    expect(hasScopes(['apis.read'], ['transactions.write'])).toBe(false);
  });

  it('write does not imply read', () => {
    expect(hasScopes(['transactions.write'], ['transactions.read'])).toBe(false);
  });

  it('expands to concrete scopes only once', () => {
    expect(expandScopes(['apis.read']).has('tags.write')).toBe(false);
  });

  it('finds scopes beyond the holder (privilege escalation)', () => {
    expect(scopesBeyond(['apis.read'], ['transactions.read', 'transactions.write'])).toEqual(['transactions.write']);
    expect(scopesBeyond(['transactions.read'], ['apis.read'])).toEqual(['apis.read']);
    expect(scopesBeyond(['apis.all'], ['apis.all'])).toEqual([]);
  });
});
