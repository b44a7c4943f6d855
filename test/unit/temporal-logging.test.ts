import { Writable } from 'node:stream';
import pino from 'pino';
import { temporalLogger } from '../../worker/temporal-logging';

describe("the Temporal SDK's logger", () => {
  it('writes each SDK line as one JSON object with its metadata and the error as err', () => {
    const lines: string[] = [];
    const sink = new Writable({
      write(chunk: Buffer, _enc, done) {
        lines.push(...chunk.toString().split('\n').filter(Boolean));
        done();
      },
    });
    const logger = temporalLogger(pino({ level: 'trace' }, sink));
    const failure = new Error('bank answered 503');
    logger.warn('Activity failed', { workflowId: 'sync-connection:42', activityType: 'syncBankConnection', error: failure });
    logger.log('INFO', 'Workflow completed', { workflowId: 'receipt:t:m' });

    expect(lines).toHaveLength(2);
    const [warned, info] = lines.map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(warned).toMatchObject({
      level: 40,
      msg: 'Activity failed',
      workflowId: 'sync-connection:42',
      activityType: 'syncBankConnection',
      err: { message: 'bank answered 503', type: 'Error' },
    });
    expect(info).toMatchObject({ level: 30, msg: 'Workflow completed', workflowId: 'receipt:t:m' });
  });
});
