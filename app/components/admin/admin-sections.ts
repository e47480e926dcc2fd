import {
  BookImage,
  ChartColumn,
  FileClock,
  Images,
  Inbox,
  KeyRound,
  Link2,
  Mail,
  MessageCircleQuestion,
  NotebookPen,
  Settings,
  Users,
  UsersRound,
  Video,
} from "lucide-react";
import type { AdminMessageKey } from "#app/i18n/admin-dictionary.ts";

export type AdminSection = { to: string; title: AdminMessageKey; text: AdminMessageKey; icon: typeof Settings };

/** The admin screens, in the order the navigation and the dashboard show them. */
export const adminSections: AdminSection[] = [
  { to: "/admin/gallery", title: "admin.section.gallery", text: "admin.section.galleryText", icon: Images },
  { to: "/admin/albums", title: "admin.section.albums", text: "admin.section.albumsText", icon: BookImage },
  { to: "/admin/posts", title: "admin.section.posts", text: "admin.section.postsText", icon: NotebookPen },
  { to: "/admin/links", title: "admin.section.links", text: "admin.section.linksText", icon: Link2 },
  { to: "/admin/faq", title: "admin.section.faq", text: "admin.section.faqText", icon: MessageCircleQuestion },
  { to: "/admin/videos", title: "admin.section.videos", text: "admin.section.videosText", icon: Video },
  { to: "/admin/settings", title: "admin.section.settings", text: "admin.section.settingsText", icon: Settings },
  { to: "/admin/invites", title: "admin.section.invites", text: "admin.section.invitesText", icon: KeyRound },
  { to: "/admin/groups", title: "admin.section.groups", text: "admin.section.groupsText", icon: UsersRound },
  { to: "/admin/users", title: "admin.section.users", text: "admin.section.usersText", icon: Users },
  { to: "/admin/messages", title: "admin.section.messages", text: "admin.section.messagesText", icon: Inbox },
  { to: "/admin/outbox", title: "admin.section.outbox", text: "admin.section.outboxText", icon: Mail },
  { to: "/admin/audit", title: "admin.section.audit", text: "admin.section.auditText", icon: FileClock },
  {
    to: "/admin/statistics",
    title: "admin.section.statistics",
    text: "admin.section.statisticsText",
    icon: ChartColumn,
  },
];
