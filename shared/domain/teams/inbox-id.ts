import { randomInt } from 'node:crypto';

// No 0/o, 1/l/i: the id is read off a screen and typed into a chat.
const ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';
export const INBOX_ID_PATTERN = /\b[a-hjkmnp-z2-9]{10}\b/;

/** A short id a person can send by chat or use as an email local part, e.g. `k3xv9qpa2m`. */
export function newInboxId(): string {
  let id = '';
  for (let i = 0; i < 10; i++) id += ALPHABET[randomInt(ALPHABET.length)];
  return id;
}
