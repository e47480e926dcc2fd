/** Dates are ISO text on SQLite, Date objects on PostgreSQL; booleans 0/1 on SQLite: services use `values.ts`. */
export type DbDate = string | Date;
export type DbBoolean = boolean | number;
