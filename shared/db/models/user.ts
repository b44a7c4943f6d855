import { BaseModel } from './base';

export class User extends BaseModel {
  static override tableName = 'users';
  email!: string;
  fullName!: string | null;
  avatarUrl!: string | null;
  locale!: string;
  timezone!: string | null;
  teamId!: string | null;
  updatedAt!: string;
}
