import * as applications from '../../shared/domain/oauth-applications/service';
import * as schema from '../../shared/domain/oauth-applications/schema';
import { all, mutation, none, one, query } from './declare';

/** The team's OAuth applications (clients of the authorization server), and the applications the caller granted access to. */
export const oauthApplications = [
  query('oauthApplications.get', 'GET /oauth-applications', ['teams.read'], {
    formerly: ['oauthApplications.list'],
    summary: "List the team's OAuth applications",
    description: 'Newest first; client secrets are never listed.',
    output: all(schema.oauthApplicationSchema),
    run: ({ principal }, { db }) => applications.listApplications(db, principal.teamId),
  }),
  query('oauthApplications.authorized', 'GET /oauth-applications/authorized', ['users.read'], {
    summary: 'Applications I granted access to',
    description:
      "In this team, with the scopes granted and when: the team's applications, other teams', and clients that registered themselves at POST /oauth/register (`selfRegistered: true`), which nobody else sees.",
    output: all(schema.authorizedApplicationSchema),
    run: ({ principal }, { db }) => applications.authorizedApplications(db, principal),
  }),
  query('oauthApplications.getById', 'GET /oauth-applications/:id', ['teams.read'], {
    formerly: ['oauthApplications.get'],
    summary: 'Get an OAuth application',
    input: schema.idInput,
    output: one(schema.oauthApplicationSchema),
    run: ({ principal, input }, { db }) => applications.getApplication(db, principal.teamId, input.id),
  }),
  mutation('oauthApplications.create', 'POST /oauth-applications', ['teams.write'], {
    status: 201,
    summary: 'Register an OAuth application',
    description:
      'A confidential application (`isPublic: false`) gets a client secret, in this answer only; a public one (PKCE only) has none. Scopes never go beyond your own.',
    input: schema.createOAuthApplicationInput,
    output: one(schema.oauthApplicationWithSecretSchema),
    run: ({ principal, input }, { db }) => applications.createApplication(db, principal, input),
  }),
  mutation('oauthApplications.update', 'PATCH /oauth-applications/:id', ['teams.write'], {
    summary: 'Update an OAuth application',
    description: 'Only the fields sent change. `active: false` revokes every token it was issued; reactivating does not bring them back.',
    input: schema.updateOAuthApplicationInput,
    output: one(schema.oauthApplicationSchema),
    run: ({ principal, input }, { db }) => applications.updateApplication(db, principal, input),
  }),
  mutation('oauthApplications.delete', 'DELETE /oauth-applications/:id', ['teams.write'], {
    summary: 'Delete an OAuth application',
    description: 'Its codes, grants and tokens go with it and stop working at once.',
    input: schema.idInput,
    output: none,
    run: ({ principal, input }, { db }) => applications.deleteApplication(db, principal.teamId, input.id),
  }),
  mutation('oauthApplications.regenerateSecret', 'POST /oauth-applications/:id/regenerate-secret', ['teams.write'], {
    summary: 'Give an OAuth application a new client secret',
    description:
      'For a confidential application: the new secret is in this answer only, and the old one stops working at once, with every token issued to the application. A public application has none (`client_secret: null`).',
    input: schema.idInput,
    output: one(schema.oauthApplicationWithSecretSchema),
    run: ({ principal, input }, { db }) => applications.regenerateSecret(db, principal.teamId, input.id),
  }),
  mutation('oauthApplications.revokeAccess', 'DELETE /oauth-applications/authorized/:applicationId', ['users.write'], {
    summary: 'Withdraw my grant to an application',
    description: 'Its tokens for you in this team are revoked, and its next authorization asks again.',
    input: schema.revokeAccessInput,
    output: one(schema.accessRevokedSchema),
    run: ({ principal, input }, { db }) => applications.revokeAccess(db, principal, input.applicationId),
  }),
];
