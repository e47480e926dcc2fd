/** Why a post's input was refused (app/domains/posts/post-schema.ts and post-admin.server.ts name these keys). */
export const adminPostRulesEn = {
  "admin.posts.error.slug": "Use lower-case letters a–z, digits and single hyphens between them (e.g. my-first-post).",
  "admin.posts.error.slugTaken": "Another post has or had this address. Choose another one.",
  "admin.posts.error.tag": "A tag holds letters, digits, spaces and - _ . + # and at most 40 characters.",
  "admin.posts.error.tooManyTags": "At most 20 tags.",
  "admin.posts.error.cover": "This cover picture does not exist (any more). Upload it again.",
  "admin.posts.error.visibility": "Choose who may see the post: everyone, members or groups.",
  "admin.posts.error.groupsNeeded": "Choose at least one group, or another choice of who may see the post.",
  "admin.posts.error.groups": "One of these groups does not exist (any more). Choose again.",
  "admin.posts.error.status": "Choose draft, scheduled or published.",
  "admin.posts.error.publishAt": "Enter a date and time.",
  "admin.posts.error.publishAtPast": "A scheduled post needs a time in the future. To publish now, choose “Publish”.",
};
