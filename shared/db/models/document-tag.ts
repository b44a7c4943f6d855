import { Model } from 'objection';

/** A tag on a document; the pair is the key (no id, no createdAt), hence not a TeamScopedModel. */
export class DocumentTag extends Model {
  static override tableName = 'document_tags';
  static override idColumn = ['documentId', 'tagId'];
  static override jsonAttributes: string[] = [];
  teamId!: string;
  documentId!: string;
  tagId!: string;
}
