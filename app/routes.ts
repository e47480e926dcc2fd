import { index, type RouteConfig, route } from "@react-router/dev/routes";

// The spec's route table (§2), plus resource routes without UI.
export default [
  index("routes/gallery.tsx"),
  route("home", "routes/home.tsx"),
  route("links", "routes/links.tsx"),
  route("faq", "routes/faq.tsx"),
  route("videos", "routes/videos.tsx"),
  // Albums (issue 21): the ones the reader may see, and one album by either language's slug.
  route("albums", "routes/albums._index.tsx"),
  route("albums/:slug", "routes/albums.$slug.tsx"),
  route("blog", "routes/blog._index.tsx"),
  route("blog/tag/:tag", "routes/blog.tag.$tag.tsx"),
  // A signed "preview as visitor" link (app/domains/posts/preview-link.server.ts); before the slugs.
  route("blog/preview", "routes/blog.preview.tsx"),
  // The blog's feeds (a slug has no dot, so no post can take these addresses).
  route("blog/feed.xml", "routes/blog.feed.xml.ts"),
  route("blog/atom.xml", "routes/blog.atom.xml.ts"),
  route("blog/:slug", "routes/blog.$slug.tsx"),
  route("auth", "routes/auth.tsx"),
  route("auth/two-factor", "routes/auth.two-factor.tsx"),
  route("auth/forgot", "routes/auth.forgot.tsx"),
  route("auth/reset", "routes/auth.reset.tsx"),
  // The admin area: the layout's middleware refuses visitors and non-admins before any nested loader or action runs.
  route("admin", "routes/admin.tsx", [
    index("routes/admin._index.tsx"),
    route("gallery", "routes/admin.gallery.tsx"),
    route("uploads/gallery", "routes/admin.uploads.gallery.ts"),
    // Albums (issue 21): the list and one album's editor.
    route("albums", "routes/admin.albums.tsx"),
    route("albums/:id", "routes/admin.albums.$id.tsx"),
    route("albums/:id/shares", "routes/admin.albums.$id.shares.ts"),
    route("posts", "routes/admin.posts.tsx"),
    // "new" is the editor of a post not written yet: one route, so the first autosave does not remount the editor.
    route("posts/:id", "routes/admin.posts.$id.tsx"),
    route("posts/preview", "routes/admin.posts.preview.ts"),
    route("posts/autosave", "routes/admin.posts.autosave.ts"),
    route("posts/:id/state", "routes/admin.posts.$id.state.ts"),
    route("posts/:id/presence", "routes/admin.posts.$id.presence.ts"),
    // A post's share links (issue 21): the editor's list, make one, revoke one.
    route("posts/:id/shares", "routes/admin.posts.$id.shares.ts"),
    route("uploads/posts", "routes/admin.uploads.posts.ts"),
    route("links", "routes/admin.links.tsx"),
    route("faq", "routes/admin.faq.tsx"),
    route("videos", "routes/admin.videos.tsx"),
    route("uploads/videos", "routes/admin.uploads.videos.ts"),
    route("settings", "routes/admin.settings.tsx"),
    route("markdown-preview", "routes/admin.markdown-preview.ts"),
    route("invites", "routes/admin.invites.tsx"),
    route("users", "routes/admin.users.tsx"),
    // Member groups (issue 21): who belongs to which; a post restricted to groups is for their members only.
    route("groups", "routes/admin.groups.tsx"),
    route("audit", "routes/admin.audit.tsx"),
    route("messages", "routes/admin.messages.tsx"),
    route("messages/:id", "routes/admin.messages.$id.tsx"),
    route("outbox", "routes/admin.outbox.tsx"),
    route("outbox/:id", "routes/admin.outbox.$id.tsx"),
    route("backup", "routes/admin.backup.ts"),
    // Statistics (issue 46): the screen, and its range as a CSV file.
    route("statistics", "routes/admin.statistics.tsx"),
    route("statistics.csv", "routes/admin.statistics.csv.ts"),
    // The dashboard's answers to failed background work: try again, dismiss.
    route("jobs", "routes/admin.jobs.ts"),
    route("uploads/site/:kind", "routes/admin.uploads.site.ts"),
  ]),
  // The signed-in user's own account: the layout's loader sends visitors to sign in.
  route("account", "routes/account.tsx", [
    index("routes/account._index.tsx"),
    route("email", "routes/account.email.tsx"),
    route("sessions", "routes/account.sessions.tsx"),
    route("two-factor", "routes/account.two-factor.tsx"),
  ]),
  // An e-mail change's link: outside the layout, because it needs no session (see the module).
  route("account/confirm-email", "routes/account.confirm-email.tsx"),
  // After deleting one's own account: signed out, so outside the account layout.
  route("account-deleted", "routes/account-deleted.tsx"),
  route("legal-notice", "routes/legal-notice.tsx"),
  route("privacy", "routes/privacy.tsx"),
  // The contact form: 404 while the owner has it off (app/domains/contact/).
  route("contact", "routes/contact.tsx"),
  // The site's search (issue 22): the page, and the header's type-ahead reads its data.
  route("search", "routes/search.tsx"),
  // A post shared by link with someone without an account (issue 21): the token is the only way in.
  route("s/:token", "routes/share.$token.tsx"),
  // A mail's unsubscribe link (issue 21): GET shows a button, POST (the button, or a mail program's one click) ends
  // the subscriptions of the account its token names, without a session.
  route("unsubscribe/:token", "routes/unsubscribe.$token.tsx"),

  route("auth/sign-out", "routes/auth.sign-out.ts"),
  route("api/settings", "routes/api.settings.ts"),
  route("api/preferences", "routes/api.preferences.ts"),
  route("favicon.ico", "routes/favicon.ico.ts"),
  route("sitemap.xml", "routes/sitemap.xml.ts"),
  route("robots.txt", "routes/robots.txt.ts"),

  route("*", "routes/not-found.tsx"),
] satisfies RouteConfig;
