/** Admin strings of settings, invites, users and the audit log (issue 4). */
export const adminSiteEn = {} as const;
