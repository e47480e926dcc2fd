/** Admin strings of the gallery screens (issue 3). */
export const adminGalleryEn = {} as const;
