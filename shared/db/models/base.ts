import { Model } from 'objection';

/**
 * Base for every model. Models are never bound to a global knex: services pass the knex
 * (or transaction) they were given, `Team.query(db)`, so tests and processes stay independent.
 */
export class BaseModel extends Model {
  id!: string;
  createdAt!: Date;

  static override get idColumn() {
    return 'id';
  }

  // Without a jsonSchema Objection would JSON-encode every array, breaking text[] columns.
  static override jsonAttributes: string[] = [];
}

/** A business row: it belongs to exactly one team, and every query for it is scoped by teamId. */
export class TeamScopedModel extends BaseModel {
  teamId!: string;
}
