import { createTeam } from '../../shared/domain/teams/service';
import { newInboxId } from '../../shared/domain/teams/inbox-id';
import { createTestDatabase, type TestDatabase } from '../support/database';

jest.mock('../../shared/domain/teams/inbox-id', () => {
  const actual = jest.requireActual<typeof import('../../shared/domain/teams/inbox-id')>('../../shared/domain/teams/inbox-id');
  return { ...actual, newInboxId: jest.fn(actual.newInboxId) };
});
const drawInboxId = newInboxId as jest.MockedFunction<typeof newInboxId>;

let tdb: TestDatabase;
beforeAll(async () => {
  tdb = await createTestDatabase();
});
afterAll(() => tdb.drop());

describe('createTeam', () => {
  it('draws another inbox id when the one drawn is taken', async () => {
    const first = await createTeam(tdb.db, { name: 'First' });
    drawInboxId.mockReturnValueOnce(first.inboxId);
    const second = await createTeam(tdb.db, { name: 'Second', baseCurrency: 'EUR' });
    expect(second.inboxId).not.toBe(first.inboxId);
    expect(second).toMatchObject({ name: 'Second', baseCurrency: 'EUR' });
    expect(drawInboxId).toHaveBeenCalledTimes(3);
  });
});
