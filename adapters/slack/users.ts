import type { webApi } from '@slack/bolt';
import type { Logger } from 'pino';
import { countSlackError } from './metrics.js';

// Who a Slack user is (users.info): a contact's name and email, a team member's display name, and
// whether they administer the workspace. Contact details are cached for a while; admin rights are always asked afresh.

export type SlackPerson = {
  name: string | null;
  email: string | null;
  /** How Slack shows them: the profile's display name, else their real name. */
  displayName: string | null;
  /** A workspace admin or owner. */
  isAdmin: boolean;
};

const CONTACT_TTL_MS = 10 * 60_000;
const MAX_CACHED = 10_000;

export type UserDirectory = {
  /** users.info, cached; undefined when Slack would not say (the chat goes on without it). */
  person(userId: string): Promise<SlackPerson | undefined>;
  /** Workspace admins and owners, and the users named in SLACK_ADMIN_USER_IDS. */
  isAdmin(userId: string): Promise<boolean>;
};

export function createUserDirectory(
  client: webApi.WebClient,
  adminUserIds: readonly string[],
  logger: Logger,
  now: () => number = Date.now,
): UserDirectory {
  const cache = new Map<string, { at: number; person: SlackPerson }>();

  async function lookUp(userId: string): Promise<SlackPerson> {
    const { user } = await client.users.info({ user: userId });
    const profile = user?.profile;
    const person: SlackPerson = {
      name: profile?.real_name || user?.real_name || profile?.display_name || user?.name || null,
      email: profile?.email || null,
      displayName: profile?.display_name || profile?.real_name || user?.real_name || user?.name || null,
      isAdmin: Boolean(user?.is_admin || user?.is_owner || user?.is_primary_owner),
    };
    if (cache.size >= MAX_CACHED) cache.clear();
    cache.set(userId, { at: now(), person });
    return person;
  }

  return {
    async person(userId) {
      const cached = cache.get(userId);
      if (cached && now() - cached.at < CONTACT_TTL_MS) return cached.person;
      try {
        return await lookUp(userId);
      } catch (error) {
        countSlackError(error);
        logger.warn({ err: error, userId }, 'users.info failed; the contact has no name or email');
        return undefined;
      }
    },
    async isAdmin(userId) {
      if (adminUserIds.includes(userId)) return true;
      try {
        return (await lookUp(userId)).isAdmin;
      } catch (error) {
        countSlackError(error);
        logger.warn({ err: error, userId }, 'users.info failed; treating the user as no admin');
        return false;
      }
    },
  };
}
