/** Admin strings of the links, FAQ and video screens (issue 3). */
export const adminContentEn = {} as const;
