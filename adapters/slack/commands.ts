import type { App, webApi } from '@slack/bolt';
import type { Logger } from 'pino';
import { needsAdmin, parseCommandText, runCommand, type CommandReply } from '../commands.js';
import type { PlatformWords } from '../platform-words.js';
import type { HubClient } from '../hub-client.js';
import type { LearnWatcher } from '../learn-watch.js';
import { escapeText, unescapeText } from './text.js';
import type { UserDirectory } from './users.js';
import { countSlackError } from './metrics.js';
import { checkChannel } from './channel-check.js';
import { questionBlocks } from './unanswered.js';

// The slash command (`/chatbot` unless SLACK_COMMAND names another) on Slack: acknowledged at
// once, run by the platform-neutral command module, answered privately through the command's
// response_url. A long lead list goes to the asker as a CSV file in a direct message.

export type CommandDeps = {
  command: string;
  hub: () => HubClient | undefined;
  users: UserDirectory;
  logger: Logger;
  /** Says in the channel when a website `learn` started is done. */
  learning: LearnWatcher;
};

export const SLACK_ADMINS = 'workspace admins and owners';
const FILE_SENT = 'I sent you the file in a direct message.';
const FILE_FAILED = "I couldn't send you the file; please try again in a moment.";


export const slackWords = (command: string): PlatformWords => ({ command, admins: SLACK_ADMINS, workspace: 'workspace' });

export function listenForCommands(app: App, deps: CommandDeps): void {
  const { command: commandName, users, logger } = deps;
  const words = slackWords(commandName);

  app.command(commandName, async ({ command, ack, respond, client }) => {
    await ack();
    const hub = deps.hub();
    if (!hub) return;
    const input = parseCommandText(unescapeText(command.text ?? ''));
    const isAdmin = needsAdmin(input.name) && (await users.isAdmin(command.user_id));
    const reply = await runCommand(input, {
      hub,
      platform: 'slack',
      workspaceId: command.team_id,
      channelId: command.channel_id,
      isAdmin,
      words,
      checkChannel: (need) => checkChannel(client, { id: command.channel_id, name: command.channel_name }, need, commandName, logger),
      watchLearning: (learning) =>
        deps.learning.watch({
          hub,
          learning,
          words,
          // Privately, as the command's reply: Slack takes follow-ups at its response_url for 30 minutes.
          post: (text) => respond({ response_type: 'ephemeral', replace_original: false, text: escapeText(text) }),
        }),
    });
    let text = reply.text;
    if (reply.attachment) text = `${text} ${await sendAttachment(client, command.user_id, reply.attachment, logger)}`;
    logger.info({ subcommand: input.name, user: command.user_id, team: command.team_id }, 'Slack command');
    const blocks = reply.questions?.length ? { blocks: questionBlocks(text, reply.questions) } : {};
    await respond({ response_type: 'ephemeral', text: escapeText(text), ...blocks });
  });
}

/** Uploads the file into the asker's direct message with the app (files.uploadV2); answers what to tell them. */
async function sendAttachment(
  client: webApi.WebClient,
  userId: string,
  attachment: NonNullable<CommandReply['attachment']>,
  logger: Logger,
): Promise<string> {
  try {
    const opened = await client.conversations.open({ users: userId });
    const channelId = opened.channel?.id;
    if (!channelId) throw new Error('conversations.open answered without a channel');
    await client.filesUploadV2({
      channel_id: channelId,
      content: attachment.content,
      filename: attachment.filename,
      title: attachment.filename,
    });
    return FILE_SENT;
  } catch (error) {
    countSlackError(error);
    logger.error({ err: error, userId }, 'could not upload a file to Slack');
    return FILE_FAILED;
  }
}
