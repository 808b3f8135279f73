// How a command's replies name the platform's own things, for Slack and Discord alike.

export type PlatformWords = {
  /** e.g. `/chatbot` */
  command: string;
  /** Who may administer, e.g. "people with the Manage Server permission". */
  admins: string;
  /** "server" (Discord) or "workspace" (Slack). */
  workspace: string;
  /** Commands can be typed in threads (Discord; Slack has none there): `resolve` is offered. */
  threadCommands?: boolean;
};
