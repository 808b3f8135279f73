// Which saved conversation a Discord message belongs to. In a server's channel every person has
// their own, `discord:{server}:{channel}:{user}`, so one person handed to the team leaves the
// others with the chatbot; a thread is one conversation for whoever writes in it (as a Slack
// thread is), `discord:{server}:{thread}`, and so is a DM, `discord:dm:{channel}`.

/** Bindings of Discord DMs live under this workspace id (there is no guild). */
export const DM_WORKSPACE = 'dm';

export type Place = {
  /** The server; null in a DM. */
  guildId: string | null;
  channelId: string;
  /** The channel is a thread. */
  inThread: boolean;
};

export function conversationIdOf({ guildId, channelId, inThread }: Place, userId: string): string {
  if (!guildId) return `discord:${DM_WORKSPACE}:${channelId}`;
  return inThread ? `discord:${guildId}:${channelId}` : `discord:${guildId}:${channelId}:${userId}`;
}

/** The person whose own conversation in a channel this is; undefined for a thread's or a DM's (and any other id). */
export function personOf(conversationId: string): string | undefined {
  const [platform, guildId, channelId, userId, ...more] = conversationId.split(':');
  if (platform !== 'discord' || guildId === DM_WORKSPACE || !channelId || more.length > 0) return undefined;
  return userId || undefined;
}

/** How the bot names the person a message of its own in a shared channel is for, first thing in it. */
export const addressed = (userId: string, text: string) => `<@${userId}> ${text}`;

const ADDRESSEE = /^<@!?(\d+)> ?/;

/** The person a message of the bot's names first (see `addressed`), if any. */
export const addresseeOf = (content: string) => ADDRESSEE.exec(content)?.[1];

/** The text of an `addressed` message without the name in front. */
export const withoutAddressee = (content: string) => content.replace(ADDRESSEE, '');
