import { Model } from 'objection';

/**
 * A message an activity sends at most once (activities/messaging/send-once.ts): claimed before the
 * send, `sentAt` set after. Keyed by workflow, run and activity id; no team, hence not a BaseModel.
 */
export class SentMessage extends Model {
  static override tableName = 'sent_messages';
  static override idColumn = 'activityKey';
  static override jsonAttributes: string[] = [];
  activityKey!: string;
  claimedAt!: Date;
  sentAt!: Date | null;
}
