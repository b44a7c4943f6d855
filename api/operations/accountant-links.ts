import {
  accountantLinkIdParams,
  accountantLinkSchema,
  createAccountantLinkBody,
  listAccountantLinksQuery,
} from '../../shared/domain/accountant-links/schema';
import { createAccountantLink, listAccountantLinks, revokeAccountantLink } from '../../shared/domain/accountant-links/service';
import { all, mutation, none, one, query } from './declare';

/** An export handed to an outside accountant: a link that needs no team credentials, expiring and revocable. */
export const accountantLinks = [
  mutation('accountantLinks.create', 'POST /accountant-links', ['transactions.write'], {
    status: 201,
    summary: 'Share an export with an accountant',
    description:
      'A link (`/accountant/<token>`) that downloads the export’s ZIP for anyone who has it, with no sign-in, until it expires (`expiresInDays`, 1–90, default 14) or is revoked. The URL is in this answer only (just the token’s hash is kept), and in the email sent to `email` when one is given: what the export holds, the link and when it expires, sent through the notification outbox (the team gets an `accountant_link_shared` notice too); a link revoked before its email goes out is not mailed. Each download, and each attempt on an expired or revoked link (answered 404), is recorded in the team’s audit trail with the link as the actor (`link`, the link’s id) and the caller’s address. It hands the team’s data to someone outside it, so it takes a write scope. 404 for an export that is not the team’s, 409 for one not completed.',
    input: createAccountantLinkBody,
    output: one(accountantLinkSchema),
    run: ({ principal, input }, { db, config }) =>
      createAccountantLink(db, { teamId: principal.teamId, userId: principal.userId }, input, {
        key: config.ENCRYPTION_KEY,
        publicUrl: config.PUBLIC_URL ?? '',
      }),
  }),
  query('accountantLinks.get', 'GET /accountant-links', ['transactions.read'], {
    summary: 'List the links made for an export',
    description:
      'Newest first, each with its status, its downloads (`uses`) and refused attempts; never the URL. 404 for an export that is not the team’s.',
    input: listAccountantLinksQuery,
    output: all(accountantLinkSchema),
    run: ({ principal, input }, { db }) => listAccountantLinks(db, principal.teamId, input.exportId),
  }),
  mutation('accountantLinks.revoke', 'DELETE /accountant-links/:id', ['transactions.write'], {
    summary: 'Revoke an accountant link',
    description:
      'The link stops working at once: opening it answers 404, and the attempt is recorded in the audit trail. Revoking it again changes nothing.',
    input: accountantLinkIdParams,
    output: none,
    run: ({ principal, input }, { db }) => revokeAccountantLink(db, principal.teamId, input.id),
  }),
];
