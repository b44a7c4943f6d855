import { randomInt } from 'node:crypto';
import type { Db } from '../../db/knex';
import { Team } from '../../db/models';

// No 0/o, 1/l/i: the id is read off a screen and typed into a chat.
const ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';
export const INBOX_ID_PATTERN = /\b[a-hjkmnp-z2-9]{10}\b/;

/** A short id a person can send by chat or use as an email local part, e.g. `k3xv9qpa2m`. */
export function newInboxId(): string {
  let id = '';
  for (let i = 0; i < 10; i++) id += ALPHABET[randomInt(ALPHABET.length)];
  return id;
}

/** The team whose inbox id this is (an email's recipient, a chat's "Connect inbox <id>"). */
export async function findTeamByInboxId(db: Db, inboxId: string): Promise<Team | undefined> {
  return Team.query(db).findOne({ inboxId });
}
