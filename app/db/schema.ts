import type { Generated } from "kysely";

/**
 * Dates are ISO strings on SQLite and Date objects on PostgreSQL; booleans are 0/1 on SQLite.
 * Services normalise both with the helpers in `values.ts` before anything leaves them.
 */
export type DbDate = string | Date;
export type DbBoolean = boolean | number;

export interface UserTable {
  id: string;
  name: string;
  email: string;
  emailVerified: DbBoolean;
  image: string | null;
  createdAt: DbDate;
  updatedAt: DbDate;
}

export interface SessionTable {
  id: string;
  token: string;
  userId: string;
  expiresAt: DbDate;
  ipAddress: string | null;
  userAgent: string | null;
  createdAt: DbDate;
  updatedAt: DbDate;
}

export interface AccountTable {
  id: string;
  accountId: string;
  providerId: string;
  userId: string;
  accessToken: string | null;
  refreshToken: string | null;
  idToken: string | null;
  accessTokenExpiresAt: DbDate | null;
  refreshTokenExpiresAt: DbDate | null;
  scope: string | null;
  password: string | null;
  createdAt: DbDate;
  updatedAt: DbDate;
}

export interface VerificationTable {
  id: string;
  identifier: string;
  value: string;
  expiresAt: DbDate;
  createdAt: DbDate;
  updatedAt: DbDate;
}

export interface SiteSettingsTable {
  key: string;
  value: string;
}

export interface UserRolesTable {
  user_id: string;
  role: string;
  created_at: DbDate;
}

export interface InviteCodesTable {
  code: string;
  is_used: Generated<DbBoolean>;
  used_by: string | null;
  used_at: DbDate | null;
  /** A role the code grants on sign-up: the first-admin setup code grants 'admin'. */
  grants_role: string | null;
  note: string | null;
  created_at: DbDate;
}

export interface Database {
  user: UserTable;
  session: SessionTable;
  account: AccountTable;
  verification: VerificationTable;
  site_settings: SiteSettingsTable;
  user_roles: UserRolesTable;
  invite_codes: InviteCodesTable;
}
