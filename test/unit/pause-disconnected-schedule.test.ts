import type { TemporalGateway } from '../../shared/temporal/client';
import { pauseScheduleOfDisconnected } from '../../shared/domain/bank-connections/scheduled-sync';

describe('pauseScheduleOfDisconnected', () => {
  it('does not fail its caller when Temporal cannot be reached: it logs, and the lazy pause stays the fallback', async () => {
    const unreachable: TemporalGateway = {
      options: { address: '127.0.0.1:1', namespace: 'default', taskQueue: 'none' },
      client: () => Promise.reject(new Error('14 UNAVAILABLE: No connection established')),
      ping: () => Promise.reject(new Error('unavailable')),
      close: () => Promise.resolve(),
    };
    const errors: { obj: Record<string, unknown>; msg: string }[] = [];
    await expect(
      pauseScheduleOfDisconnected({ temporal: unreachable, logger: { error: (obj, msg) => errors.push({ obj, msg }) } }, 'conn-1'),
    ).resolves.toBeUndefined();
    expect(errors).toEqual([{ obj: expect.objectContaining({ connectionId: 'conn-1' }), msg: expect.stringMatching(/next run will/) }]);
  });
});
