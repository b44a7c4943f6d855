import { randomBytes, randomUUID } from 'node:crypto';
import { signSessionToken } from '../../api/auth/session-token';
import { createUserWithTeam } from '../../shared/domain/teams/service';
import { teamDeletionId } from '../../shared/temporal/team-deletion/contract';
import { sendJson, statusAndBody, testConfig } from '../support/api';
import { startSmtpSink, type SmtpSink } from '../fakes/smtp-sink';
import { createTeamAndOwner, insertApiKey, insertTransactions } from '../support/fixtures';
import { oauthAccessToken } from '../support/oauth';
import { withStack } from '../support/stack';
import { trpcAs, trpcError } from '../support/trpc';

let smtp: SmtpSink;
beforeAll(async () => {
  smtp = await startSmtpSink();
});
afterAll(async () => {
  await smtp.close();
});

const stack = withStack('teams', () => ({ SMTP_URL: smtp.url, AUTH_AUTO_PROVISION: 'true', TEAM_DELETION_BATCH_SIZE: '7' }));

const secret = () => testConfig().AUTH_JWT_SECRET!;
const email = (who: string) => `${who}-${randomBytes(4).toString('hex')}@example.com`;

/** A JSON request as the given bearer, with any extra headers. */
const send = (method: string, path: string, token: string, body?: unknown, headers: Record<string, string> = {}) =>
  sendJson(stack.api, method, path, token, body, headers).then(statusAndBody);

/** A second user who is a member (not owner) of the team, with a session. */
async function addMember(teamId: string, name = 'Mia Member') {
  const { user } = await createUserWithTeam(stack.tdb.db, { email: email('member'), fullName: name, teamId });
  return { user, sessionToken: await signSessionToken(secret(), user.id) };
}

describe('several teams per user', () => {
  it('creates a team, lists its members and deletes it again over tRPC', async () => {
    const owner = await createTeamAndOwner(stack.tdb.db, 'Typed');
    const trpc = trpcAs(stack.api, owner.sessionToken);
    const team = await trpc.teams.create.mutate({ name: 'Short-lived', baseCurrency: 'GBP' });
    expect(team).toMatchObject({ name: 'Short-lived', baseCurrency: 'GBP', role: 'owner', current: false });
    expect(await trpc.teams.members.query({ teamId: team.id })).toEqual([
      expect.objectContaining({ userId: owner.user.id, role: 'owner' }),
    ]);
    const deletion = await trpc.teams.delete.mutate({ teamId: team.id });
    expect(deletion).toMatchObject({ teamId: team.id, workflowId: teamDeletionId(team.id) });
    for (let i = 0; i < 100 && (await trpc.teams.deletion.query({ teamId: team.id }).catch(() => null))?.stage !== 'done'; i++) {
      await new Promise((r) => setTimeout(r, 100));
    }
    expect((await trpc.teams.get.query()).map((t) => t.id)).not.toContain(team.id);
  });

  it('creates a team owned by its creator, lists my teams with roles, and lets a session pick its team per request or persistently', async () => {
    const owner = await createTeamAndOwner(stack.tdb.db, 'Home');
    const created = await send('POST', '/teams', owner.sessionToken, {
      name: 'Side Project',
      baseCurrency: 'EUR',
      timezone: 'Europe/Berlin',
    });
    expect(created.status).toBe(201);
    expect(created.body.data).toMatchObject({
      name: 'Side Project',
      baseCurrency: 'EUR',
      timezone: 'Europe/Berlin',
      role: 'owner',
      current: false,
    });
    const side = created.body.data.id;

    const mine = await trpcAs(stack.api, owner.sessionToken).teams.get.query();
    expect(mine.map((t) => [t.name, t.role, t.current])).toEqual([
      ['Home', 'owner', true],
      ['Side Project', 'owner', false],
    ]);

    // Per request: x-team-id, for a team the user belongs to.
    const there = await send('GET', '/teams/current', owner.sessionToken, undefined, { 'x-team-id': side });
    expect(there.body.data.id).toBe(side);
    const stranger = await createTeamAndOwner(stack.tdb.db, 'Stranger');
    expect(await send('GET', '/teams/current', owner.sessionToken, undefined, { 'x-team-id': stranger.team.id })).toEqual({
      status: 403,
      body: { error: 'Forbidden', description: `You are not a member of team ${stranger.team.id}` },
    });
    expect((await send('GET', '/teams/current', owner.sessionToken, undefined, { 'x-team-id': 'nope' })).status).toBe(400);
    expect((await send('GET', `/teams/${stranger.team.id}`, owner.sessionToken)).status).toBe(404);

    // Persistently: the current team, which must be one of mine.
    const switched = await trpcAs(stack.api, owner.sessionToken).users.switchTeam.mutate({ teamId: side });
    expect(switched.teamId).toBe(side);
    expect((await send('GET', '/teams/current', owner.sessionToken)).body.data.id).toBe(side);
    expect((await send('PATCH', '/users/me', owner.sessionToken, { teamId: stranger.team.id })).status).toBe(404);

    // A key is bound to its team: it sees only that team and cannot name another.
    const key = await insertApiKey(stack.tdb.db, { teamId: owner.team.id, userId: owner.user.id }, ['teams.read', 'teams.write']);
    expect((await send('GET', '/teams', key)).body.data.map((t: { id: string }) => t.id)).toEqual([owner.team.id]);
    expect(await send('GET', '/teams/current', key, undefined, { 'x-team-id': side })).toEqual({
      status: 403,
      body: { error: 'Forbidden', description: 'An API key acts only in the team it was created for' },
    });
    expect((await send('GET', `/teams/${side}`, key)).status).toBe(404);
    expect((await send('POST', '/teams', key, { name: 'By key' })).status).toBe(403);
  });

  it('gets and updates a team by id (settings, validated) and regenerates its inbox id for owners only', async () => {
    const owner = await createTeamAndOwner(stack.tdb.db, 'Settings');
    const member = await addMember(owner.team.id);
    const trpc = trpcAs(stack.api, owner.sessionToken);
    const updated = await trpc.teams.update.mutate({
      teamId: owner.team.id,
      changes: { fiscalYearStartMonth: 4, logoUrl: 'https://cdn.example.com/logo.png', countryCode: 'GB', name: 'Settings Ltd' },
    });
    expect(updated).toMatchObject({
      fiscalYearStartMonth: 4,
      logoUrl: 'https://cdn.example.com/logo.png',
      countryCode: 'GB',
      name: 'Settings Ltd',
    });
    expect(await trpc.teams.getById.query({ teamId: owner.team.id })).toEqual(updated);
    expect(
      await trpcError(trpc.teams.update.mutate({ teamId: owner.team.id, changes: { fiscalYearStartMonth: 13, timezone: 'Mars/Base' } })),
    ).toMatchObject({ httpStatus: 400, details: [{ field: 'changes.fiscalYearStartMonth' }, { field: 'changes.timezone' }] });

    const before = updated.inboxId;
    expect(await trpcError(trpcAs(stack.api, member.sessionToken).teams.regenerateInboxId.mutate({ teamId: owner.team.id }))).toMatchObject(
      {
        httpStatus: 403,
        description: 'Only owners of the team can change the inbox address',
      },
    );
    const regenerated = await send('POST', `/teams/${owner.team.id}/regenerate-inbox-id`, owner.sessionToken);
    expect(regenerated.body.data.inboxId).not.toBe(before);
    expect(regenerated.body.data.inboxEmail).toBe(`${regenerated.body.data.inboxId}@${stack.api.deps.config.INBOX_DOMAIN}`);
    const again = await trpc.teams.regenerateInboxId.mutate({ teamId: owner.team.id });
    expect(again.inboxId).not.toBe(regenerated.body.data.inboxId);
    expect(again.inboxEmail).toBe(`${again.inboxId}@${stack.api.deps.config.INBOX_DOMAIN}`);
    expect((await trpc.teams.getById.query({ teamId: owner.team.id })).inboxId).toBe(again.inboxId);
  });
});

describe('members and roles', () => {
  it('lets only owners change roles and remove members, and never leaves a team without an owner (409)', async () => {
    const owner = await createTeamAndOwner(stack.tdb.db, 'Roles');
    const member = await addMember(owner.team.id);
    const team = owner.team.id;
    const members = await send('GET', `/teams/${team}/members`, member.sessionToken);
    expect(members.body.data.map((m: { role: string; fullName: string }) => [m.fullName, m.role])).toEqual([
      ['Olive Owner', 'owner'],
      ['Mia Member', 'member'],
    ]);

    expect(await send('PATCH', `/teams/${team}/members/${owner.user.id}`, member.sessionToken, { role: 'member' })).toEqual({
      status: 403,
      body: { error: 'Forbidden', description: 'Only owners of the team can change roles' },
    });
    expect((await send('DELETE', `/teams/${team}/members/${owner.user.id}`, member.sessionToken)).status).toBe(403);
    expect(await send('PATCH', `/teams/${team}/members/${owner.user.id}`, owner.sessionToken, { role: 'member' })).toEqual({
      status: 409,
      body: { error: 'Conflict', description: 'A team needs at least one owner: make another member an owner first' },
    });
    expect((await send('DELETE', `/teams/${team}/members/${owner.user.id}`, owner.sessionToken)).body).toEqual({
      error: 'Conflict',
      description: 'You are the last owner: make another member an owner before leaving, or delete the team',
    });
    expect((await send('PATCH', `/teams/${team}/members/${member.user.id}`, owner.sessionToken, { role: 'boss' })).status).toBe(400);
    const passing = await addMember(team, 'Pat Passing');
    await trpcAs(stack.api, owner.sessionToken).teams.removeMember.mutate({ teamId: team, userId: passing.user.id });
    expect((await send('GET', `/teams/${team}/members`, owner.sessionToken)).body.data.map((m: { userId: string }) => m.userId)).toEqual([
      owner.user.id,
      member.user.id,
    ]);
    expect((await send('GET', '/teams', passing.sessionToken)).body.data.map((t: { id: string }) => t.id)).not.toContain(team);

    // With a second owner the first may step down, and then the last one still cannot be removed.
    const promoted = await trpcAs(stack.api, owner.sessionToken).teams.updateMember.mutate({
      teamId: team,
      userId: member.user.id,
      role: 'owner',
    });
    expect(promoted).toMatchObject({ userId: member.user.id, role: 'owner' });
    await trpcAs(stack.api, owner.sessionToken).teams.leave.mutate({ teamId: team });
    expect((await send('GET', '/teams', owner.sessionToken)).body.data.map((t: { id: string }) => t.id)).not.toContain(team);
    expect(
      await trpcError(trpcAs(stack.api, member.sessionToken).teams.removeMember.mutate({ teamId: team, userId: member.user.id })),
    ).toMatchObject({
      httpStatus: 409,
    });
    expect((await send('GET', `/teams/${team}/members`, owner.sessionToken)).status).toBe(404);
  });

  it("ends a removed member's API keys and OAuth tokens in that team at their next request", async () => {
    const owner = await createTeamAndOwner(stack.tdb.db, 'Revocation');
    const member = await addMember(owner.team.id);
    const key = await insertApiKey(stack.tdb.db, { teamId: owner.team.id, userId: member.user.id }, ['transactions.read']);
    const { access_token: token } = await oauthAccessToken(stack.api, owner.sessionToken, member.sessionToken, ['transactions.read']);
    expect((await send('GET', '/transactions', key)).status).toBe(200);
    expect((await send('GET', '/transactions', token)).status).toBe(200);

    expect((await send('DELETE', `/teams/${owner.team.id}/members/${member.user.id}`, owner.sessionToken)).status).toBe(204);
    expect(await send('GET', '/transactions', key)).toEqual({
      status: 401,
      body: { error: 'Unauthorized', description: 'Invalid API key' },
    });
    expect(await send('GET', '/transactions', token)).toEqual({
      status: 401,
      body: { error: 'Unauthorized', description: 'Invalid or expired access token' },
    });
    // Rejoining later brings nothing back: the key and the grant went with the membership.
    await stack.tdb.db('team_members').insert({ teamId: owner.team.id, userId: member.user.id, role: 'member' });
    expect((await send('GET', '/transactions', key)).status).toBe(401);
    expect((await send('GET', '/transactions', token)).status).toBe(401);
  });
});

describe('invitations', () => {
  it('emails a link, lists it for the invitee (auto-provisioned on first sign-in), and accepting twice adds the membership once', async () => {
    const owner = await createTeamAndOwner(stack.tdb.db, 'Inviting');
    const invitee = email('Invitee'); // mixed case: addresses compare case-insensitively
    const created = await send('POST', `/teams/${owner.team.id}/invitations`, owner.sessionToken, { email: invitee, role: 'member' });
    expect(created.status).toBe(201);
    const invitation = created.body.data;
    expect(invitation).toMatchObject({
      email: invitee,
      role: 'member',
      status: 'pending',
      teamName: 'Inviting',
      invitedBy: { id: owner.user.id },
    });

    const mail = await smtp.waitFor((m) => m.to.includes(invitee.toLowerCase()) || m.to.includes(invitee));
    expect(mail.subject).toBe('Olive Owner invited you to join Inviting');
    expect(mail.text).toContain(`${stack.api.deps.config.DASHBOARD_URL}/invitations/${invitation.id}`);

    expect((await send('POST', `/teams/${owner.team.id}/invitations`, owner.sessionToken, { email: invitee })).body).toEqual({
      error: 'Conflict',
      description: `An invitation to ${invitee} is already waiting; revoke it to send a new one`,
    });
    expect((await send('POST', `/teams/${owner.team.id}/invitations`, owner.sessionToken, { email: owner.user.email })).status).toBe(409);
    expect((await send('POST', `/teams/${owner.team.id}/invitations`, owner.sessionToken, { email: 'not-an-email' })).status).toBe(400);
    expect(
      (await send('GET', `/teams/${owner.team.id}/invitations`, owner.sessionToken)).body.data.map((i: { id: string }) => i.id),
    ).toEqual([invitation.id]);

    // The invitee signs in for the first time: the identity provider vouches for the address.
    const sub = randomUUID();
    const session = await signSessionToken(secret(), sub, 3600, {
      email: invitee.toLowerCase(),
      email_verified: true,
      name: 'Ivy Invitee',
    });
    const me = await send('GET', '/users/me', session);
    expect(me.body.data).toMatchObject({ id: sub, email: invitee.toLowerCase(), fullName: 'Ivy Invitee' });
    expect((await trpcAs(stack.api, session).users.invitations.query()).map((i) => i.id)).toEqual([invitation.id]);

    const trpc = trpcAs(stack.api, session);
    const [first, second] = await Promise.all([
      trpc.users.acceptInvitation.mutate({ invitationId: invitation.id }),
      send('POST', `/users/me/invitations/${invitation.id}/accept`, session),
    ]);
    expect(first.team).toMatchObject({ id: owner.team.id, role: 'member' });
    expect(second.status).toBe(200);
    expect(second.body.data.invitation.status).toBe('accepted');
    expect(await stack.tdb.db('team_members').where({ teamId: owner.team.id, userId: sub })).toHaveLength(1);
    expect(await stack.tdb.db('notifications').where({ teamId: owner.team.id, type: 'team_member_joined' })).toHaveLength(1);

    const client = await stack.api.deps.temporal.client();
    expect(await client.workflow.getHandle(`invitation:${invitation.id}`).result()).toEqual({ outcome: 'accepted', reminded: false });
    expect(await trpcError(trpc.users.declineInvitation.mutate({ invitationId: invitation.id }))).toMatchObject({
      httpStatus: 409,
      description: 'This invitation was accepted',
    });
  });

  it('is revoked by owners only, after which it cannot be accepted; declining ends it too', async () => {
    const owner = await createTeamAndOwner(stack.tdb.db, 'Revoking');
    const member = await addMember(owner.team.id);
    const target = await createTeamAndOwner(stack.tdb.db, 'Elsewhere');
    const trpc = trpcAs(stack.api, owner.sessionToken);
    expect(
      await trpcError(
        trpcAs(stack.api, member.sessionToken).teams.invite.mutate({
          teamId: owner.team.id,
          invitation: { email: target.user.email, role: 'member' },
        }),
      ),
    ).toMatchObject({ httpStatus: 403, description: 'Only owners of the team can invite members' });

    const invitation = await trpc.teams.invite.mutate({ teamId: owner.team.id, invitation: { email: target.user.email, role: 'owner' } });
    expect((await send('DELETE', `/teams/${owner.team.id}/invitations/${invitation.id}`, member.sessionToken)).status).toBe(403);
    await trpc.teams.revokeInvitation.mutate({ teamId: owner.team.id, invitationId: invitation.id });
    expect(await send('POST', `/users/me/invitations/${invitation.id}/accept`, target.sessionToken)).toEqual({
      status: 409,
      body: { error: 'Conflict', description: 'This invitation was revoked' },
    });
    const client = await stack.api.deps.temporal.client();
    expect((await client.workflow.getHandle(`invitation:${invitation.id}`).result()).outcome).toBe('revoked');
    expect(await trpc.teams.invitations.query({ teamId: owner.team.id })).toEqual([]);

    const again = await trpc.teams.invite.mutate({ teamId: owner.team.id, invitation: { email: target.user.email, role: 'member' } });
    // Someone else cannot see or take an invitation that is not addressed to them.
    expect((await send('POST', `/users/me/invitations/${again.id}/accept`, member.sessionToken)).status).toBe(404);
    expect((await send('POST', `/users/me/invitations/${again.id}/decline`, target.sessionToken)).body.data.status).toBe('declined');
    expect((await client.workflow.getHandle(`invitation:${again.id}`).result()).outcome).toBe('declined');
    const third = await trpc.teams.invite.mutate({ teamId: owner.team.id, invitation: { email: target.user.email, role: 'member' } });
    expect(await trpcAs(stack.api, target.sessionToken).users.declineInvitation.mutate({ invitationId: third.id })).toMatchObject({
      id: third.id,
      status: 'declined',
    });
    expect((await client.workflow.getHandle(`invitation:${third.id}`).result()).outcome).toBe('declined');
    expect(await stack.tdb.db('team_members').where({ teamId: owner.team.id, userId: target.user.id })).toHaveLength(0);
  });
});

describe('the signed-in user', () => {
  it('reads and updates the profile, validating each field', async () => {
    const owner = await createTeamAndOwner(stack.tdb.db, 'Profile');
    const trpc = trpcAs(stack.api, owner.sessionToken);
    const updated = await trpc.users.update.mutate({
      fullName: 'Olive O.',
      locale: 'de-AT',
      timezone: 'Europe/Vienna',
      dateFormat: 'dd.MM.yyyy',
      weekStartsOnMonday: true,
      timeFormat: 24,
      avatarUrl: 'https://cdn.example.com/o.png',
    });
    expect(updated).toMatchObject({
      fullName: 'Olive O.',
      locale: 'de-AT',
      timezone: 'Europe/Vienna',
      timeFormat: 24,
      teamId: owner.team.id,
    });
    expect(await trpc.users.me.query()).toEqual(updated);
    const bad = await send('PATCH', '/users/me', owner.sessionToken, {
      timezone: 'Nowhere',
      timeFormat: 13,
      avatarUrl: 'http://x',
      email: 'a@b.c',
    });
    expect(bad.status).toBe(400);
    // `email` cannot be changed here: an unknown key, named as its own field.
    expect([...new Set(bad.body.details.map((d: { field: string }) => d.field))].sort()).toEqual([
      'avatarUrl',
      'email',
      'timeFormat',
      'timezone',
    ]);
  });

  it('is not created on first sign-in while the identity provider has not verified the email: 401 until it has', async () => {
    const sub = randomUUID();
    const address = email('unverified');
    const claims = { email: address, name: 'Una Unverified' };
    for (const unverified of [{ ...claims, email_verified: false }, claims]) {
      const res = await send('GET', '/users/me', await signSessionToken(secret(), sub, 3600, unverified));
      expect(res).toEqual({ status: 401, body: { error: 'Unauthorized', description: 'User not found' } });
    }
    expect(await stack.tdb.db('users').where({ id: sub }).orWhere({ email: address })).toEqual([]);
    // The refusal is not remembered: once verified, the same subject is created.
    const verified = await send('GET', '/users/me', await signSessionToken(secret(), sub, 3600, { ...claims, email_verified: true }));
    expect(verified.body.data).toMatchObject({ id: sub, email: address });
  });

  it('deletes the account unless it is the last owner of a team; a user without a team still reaches user-level operations', async () => {
    const owner = await createTeamAndOwner(stack.tdb.db, 'Leaving');
    const member = await addMember(owner.team.id);
    expect(await send('DELETE', '/users/me', owner.sessionToken)).toEqual({
      status: 409,
      body: {
        error: 'Conflict',
        description: 'You are the last owner of Leaving: make another member an owner, or delete the team, first',
      },
    });
    const key = await insertApiKey(stack.tdb.db, { teamId: owner.team.id, userId: member.user.id }, ['apis.all']);
    expect((await send('DELETE', '/users/me', key)).status).toBe(403);

    await trpcAs(stack.api, member.sessionToken).teams.leave.mutate({ teamId: owner.team.id });
    expect((await send('GET', '/users/me', member.sessionToken)).body.data.teamId).toBeNull();
    expect((await send('GET', '/teams', member.sessionToken)).body.data).toEqual([]);
    expect(await send('GET', '/transactions', member.sessionToken)).toEqual({
      status: 403,
      body: { error: 'Forbidden', description: 'User does not belong to any team' },
    });
    await trpcAs(stack.api, member.sessionToken).users.delete.mutate();
    expect((await send('GET', '/users/me', member.sessionToken)).status).toBe(401);
  });
});

describe('deleting a team', () => {
  it('is for owners; access ends at once; the workflow deletes every row in batches, reports progress and emails the owner', async () => {
    const owner = await createTeamAndOwner(stack.tdb.db, 'Doomed');
    const member = await addMember(owner.team.id);
    const survivor = await createTeamAndOwner(stack.tdb.db, 'Survivor');
    await insertTransactions(stack.tdb.db, owner.team.id, 30);
    await insertTransactions(stack.tdb.db, survivor.team.id, 5);
    await stack.tdb.db('tags').insert([{ teamId: owner.team.id, name: 'a' }]);
    const key = await insertApiKey(stack.tdb.db, { teamId: owner.team.id, userId: owner.user.id }, ['transactions.read']);

    expect((await send('DELETE', `/teams/${owner.team.id}`, member.sessionToken)).body).toEqual({
      error: 'Forbidden',
      description: 'Only owners of the team can delete the team',
    });
    const started = await send('DELETE', `/teams/${owner.team.id}`, owner.sessionToken);
    expect(started.status).toBe(202);
    expect(started.body.data).toMatchObject({ teamId: owner.team.id, workflowId: teamDeletionId(owner.team.id), stage: 'starting' });
    expect((await send('GET', '/transactions', key)).status).toBe(401);
    expect((await send('GET', '/transactions', member.sessionToken)).status).toBe(403);
    expect((await send('GET', `/teams/${owner.team.id}`, owner.sessionToken)).status).toBe(404);

    const client = await stack.api.deps.temporal.client();
    await client.workflow.getHandle(teamDeletionId(owner.team.id)).result();
    const progress = await trpcAs(stack.api, owner.sessionToken).teams.deletion.query({ teamId: owner.team.id });
    expect(progress.stage).toBe('done');
    const transactions = progress.tables.find((t) => t.table === 'transactions');
    expect(transactions).toEqual({ table: 'transactions', total: 30, deleted: 30, done: true });
    expect(progress.deletedRows).toBe(progress.tables.reduce((s, t) => s + t.total, 0));
    // Members and keys went before the tables they reference: order follows the foreign keys.
    const order = progress.tables.map((t) => t.table);
    expect(order.indexOf('transaction_tags')).toBeLessThan(order.indexOf('transactions'));
    expect(order.indexOf('transaction_tags')).toBeLessThan(order.indexOf('tags'));

    expect(await stack.tdb.db('teams').where({ id: owner.team.id })).toEqual([]);
    expect(await stack.tdb.db('transactions').where({ teamId: owner.team.id })).toEqual([]);
    expect(await stack.tdb.db('transactions').where({ teamId: survivor.team.id })).toHaveLength(5);
    expect((await send('GET', `/teams/${owner.team.id}/deletion`, member.sessionToken)).status).toBe(404);
    const mail = await smtp.waitFor((m) => m.to.includes(owner.user.email) && m.subject === 'Team Doomed was deleted');
    expect(mail.text).toContain(`(${progress.deletedRows} records)`);
    // The owner still exists, without a team, and can start again.
    expect((await send('POST', '/teams', owner.sessionToken, { name: 'Phoenix' })).body.data).toMatchObject({
      name: 'Phoenix',
      current: true,
    });
  });
});
