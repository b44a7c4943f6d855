import { decodeCursor, encodeCursor } from '../../shared/domain/common/cursor';
import { AppError } from '../../shared/errors';

describe('cursor', () => {
  it('round-trips a keyset', () => {
    const id = '3f1c2b4a-9d8e-4f70-8a1b-2c3d4e5f6a7b';
    const c = encodeCursor(['2026-01-02', id]);
    expect(c).not.toContain('2026'); // opaque to the eye
    expect(decodeCursor(c, ['date', 'uuid'])).toEqual(['2026-01-02', id]);
    const stamped = ['2026-11-26 06:55:47.123456+00', id];
    expect(decodeCursor(encodeCursor(stamped), ['timestamp', 'uuid'])).toEqual(stamped);
    expect(decodeCursor(encodeCursor(['2026-11-26 06:55:47+05:30', id]), ['timestamp', 'uuid'])).toHaveLength(2);
  });

  // Well-formed cursors we never issued too: each would otherwise fail PostgreSQL's cast with a 500.
  it.each([
    'garbage',
    encodeCursor(['only-one']),
    Buffer.from('{"a":1}').toString('base64url'),
    encodeCursor(['not-a-date', '3f1c2b4a-9d8e-4f70-8a1b-2c3d4e5f6a7b']),
    encodeCursor(['2026-02-30', '3f1c2b4a-9d8e-4f70-8a1b-2c3d4e5f6a7b']),
    encodeCursor(['2026-01-02', 'not-a-uuid']),
  ])('rejects %s with a 400', (bad) => {
    expect(() => decodeCursor(bad, ['date', 'uuid'])).toThrow(AppError);
    try {
      decodeCursor(bad, ['date', 'uuid']);
    } catch (e) {
      expect((e as AppError).status).toBe(400);
    }
  });

  it.each(['2026-01-02 25:00:00+00', '2026-01-02T10:00:00Z', '2026-02-30 10:00:00+00', '2026-01-02'])(
    'rejects the timestamp %s',
    (stamp) => {
      expect(() => decodeCursor(encodeCursor([stamp, '3f1c2b4a-9d8e-4f70-8a1b-2c3d4e5f6a7b']), ['timestamp', 'uuid'])).toThrow(AppError);
    },
  );
});
