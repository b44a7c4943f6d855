import { createTeam } from '../../shared/domain/teams/service';
import { newInboxId } from '../../shared/domain/teams/inbox-id';
import { withTestDatabase } from '../support/database';

jest.mock('../../shared/domain/teams/inbox-id', () => {
  const actual = jest.requireActual<typeof import('../../shared/domain/teams/inbox-id')>('../../shared/domain/teams/inbox-id');
  return { ...actual, newInboxId: jest.fn(actual.newInboxId) };
});
const drawInboxId = newInboxId as jest.MockedFunction<typeof newInboxId>;

const tdb = withTestDatabase();

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
