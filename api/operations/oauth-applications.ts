import {
  authorizedApplications,
  createApplication,
  deleteApplication,
  getApplication,
  listApplications,
  regenerateSecret,
  revokeAccess,
  updateApplication,
} from '../../shared/domain/oauth/applications';
import {
  accessRevokedSchema,
  authorizedApplicationSchema,
  createOAuthApplicationInput,
  idInput,
  oauthApplicationSchema,
  oauthApplicationWithSecretSchema,
  revokeAccessInput,
  updateOAuthApplicationInput,
} from '../../shared/domain/oauth/schema';
import { mutation, query } from './declare';
import { all, none, one } from './output';

const trpcOnly = 'no REST door yet: registered from the dashboard over tRPC';

/** The team's OAuth applications (clients of the authorization server), and the applications the caller granted access to. */
export const oauthApplications = [
  query('oauthApplications.get', {
    trpcOnly,
    formerly: ['oauthApplications.list'],
    scopes: ['teams.read'],
    summary: "List the team's OAuth applications",
    description: 'Newest first; client secrets are never listed.',
    output: all(oauthApplicationSchema),
    run: ({ principal }, { db }) => listApplications(db, principal.teamId),
  }),
  query('oauthApplications.authorized', {
    trpcOnly,
    scopes: ['users.read'],
    summary: 'Applications I granted access to',
    description: 'In this team, with the scopes granted and when.',
    output: all(authorizedApplicationSchema),
    run: ({ principal }, { db }) => authorizedApplications(db, principal),
  }),
  query('oauthApplications.getById', {
    trpcOnly,
    formerly: ['oauthApplications.get'],
    scopes: ['teams.read'],
    summary: 'Get an OAuth application',
    input: idInput,
    output: one(oauthApplicationSchema),
    run: ({ principal, input }, { db }) => getApplication(db, principal.teamId, input.id),
  }),
  mutation('oauthApplications.create', {
    trpcOnly,
    scopes: ['teams.write'],
    summary: 'Register an OAuth application',
    description:
      'A confidential application (`isPublic: false`) gets a client secret, in this answer only; a public one (PKCE only) has none. Scopes never go beyond your own.',
    input: createOAuthApplicationInput,
    output: one(oauthApplicationWithSecretSchema),
    run: ({ principal, input }, { db }) => createApplication(db, principal, input),
  }),
  mutation('oauthApplications.update', {
    trpcOnly,
    scopes: ['teams.write'],
    summary: 'Update an OAuth application',
    description: 'Only the fields sent change. `active: false` revokes every token it was issued; reactivating does not bring them back.',
    input: updateOAuthApplicationInput,
    output: one(oauthApplicationSchema),
    run: ({ principal, input }, { db }) => updateApplication(db, principal, input),
  }),
  mutation('oauthApplications.delete', {
    trpcOnly,
    scopes: ['teams.write'],
    summary: 'Delete an OAuth application',
    description: 'Its codes, grants and tokens go with it and stop working at once.',
    input: idInput,
    output: none,
    run: ({ principal, input }, { db }) => deleteApplication(db, principal.teamId, input.id),
  }),
  mutation('oauthApplications.regenerateSecret', {
    trpcOnly,
    scopes: ['teams.write'],
    summary: 'Give an OAuth application a new client secret',
    description:
      'For a confidential application: the new secret is in this answer only, and the old one stops working at once, with every token issued to the application. A public application has none (`client_secret: null`).',
    input: idInput,
    output: one(oauthApplicationWithSecretSchema),
    run: ({ principal, input }, { db }) => regenerateSecret(db, principal.teamId, input.id),
  }),
  mutation('oauthApplications.revokeAccess', {
    trpcOnly,
    scopes: ['users.write'],
    summary: 'Withdraw my grant to an application',
    description: 'Its tokens for you in this team are revoked, and its next authorization asks again.',
    input: revokeAccessInput,
    output: one(accessRevokedSchema),
    run: ({ principal, input }, { db }) => revokeAccess(db, principal, input.applicationId),
  }),
];
