/**
 * The settings form posts each field with the value it was loaded with, under this prefix (`__was__<key>`), so
 * that the save writes only what the admin edited. Shared by the form and its action.
 */
export const BASELINE_PREFIX = "__was__";
