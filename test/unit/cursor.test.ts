import { decodeCursor, encodeCursor } from '../../shared/domain/common/cursor';
import { AppError } from '../../shared/errors';

describe('cursor', () => {
  it('round-trips a keyset', () => {
    const c = encodeCursor(['2026-01-02', 'a1b2']);
    expect(c).not.toContain('2026'); // opaque to the eye
    expect(decodeCursor(c, 2)).toEqual(['2026-01-02', 'a1b2']);
  });

  it.each(['garbage', encodeCursor(['only-one']), Buffer.from('{"a":1}').toString('base64url')])('rejects %s with a 400', (bad) => {
    expect(() => decodeCursor(bad, 2)).toThrow(AppError);
    try {
      decodeCursor(bad, 2);
    } catch (e) {
      expect((e as AppError).status).toBe(400);
    }
  });
});
