import { BaseModel } from './base';

export class User extends BaseModel {
  static override tableName = 'users';
  email!: string;
  fullName!: string | null;
  avatarUrl!: string | null;
  locale!: string;
  timezone!: string | null;
  /** The current team: where a session acts unless it names another (`x-team-id`). */
  teamId!: string | null;
  dateFormat!: 'dd/MM/yyyy' | 'MM/dd/yyyy' | 'yyyy-MM-dd' | 'dd.MM.yyyy' | null;
  weekStartsOnMonday!: boolean;
  timeFormat!: 12 | 24 | null;
  updatedAt!: Date;
}
