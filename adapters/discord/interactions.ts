import {
  AttachmentBuilder,
  InteractionContextType,
  MessageFlags,
  PermissionFlagsBits,
  SlashCommandBuilder,
  type ChatInputCommandInteraction,
  type Interaction,
  type RESTPostAPIChatInputApplicationCommandsJSONBody,
} from 'discord.js';
import type { Logger } from 'pino';
import {
  COMMAND_FAILED,
  SETTING_FIELDS,
  runCommand,
  type ChannelNeed,
  type CommandInput,
  type CommandReply,
} from '../commands.js';
import type { HubClient } from '../hub-client.js';
import type { Learning, LearnWatcher } from '../learn-watch.js';
import type { PlatformWords } from '../platform-words.js';
import { DM_WORKSPACE } from './conversation.js';
import { checkChannel } from './channel-check.js';
import { answerRows } from './unanswered.js';
import { asTyped, DISCORD_MESSAGE_LIMIT, truncateMessage } from './text.js';

// The `/chatbot` slash command: its definition (registered on start) and its handling. What each
// subcommand does and says lives in ../commands.ts, shared with the Slack adapter; here are only
// Discord's parts: options in, ephemeral replies out, and who counts as an admin.

export const COMMAND_NAME = 'chatbot';

export const DISCORD_WORDS: PlatformWords = {
  command: `/${COMMAND_NAME}`,
  admins: 'members with the Manage Server permission',
  workspace: 'server',
  threadCommands: true,
};

/** The command as registered with Discord (bulk overwrite), usable in servers and in DMs with the bot. */
export function chatbotCommand(): RESTPostAPIChatInputApplicationCommandsJSONBody {
  return new SlashCommandBuilder()
    .setName(COMMAND_NAME)
    .setDescription('Chatbots of this Switchboard hub')
    .setContexts(InteractionContextType.Guild, InteractionContextType.BotDM)
    .addSubcommand((sub) => sub.setName('help').setDescription('What the chatbot command can do'))
    .addSubcommand((sub) => sub.setName('list').setDescription('List the chatbots of this hub'))
    .addSubcommand((sub) =>
      sub
        .setName('use')
        .setDescription('Answer with a chatbot in this channel (or as the server default)')
        .addStringOption((option) =>
          option.setName('chatbot').setDescription('Id of the chatbot (see /chatbot list)').setRequired(true),
        )
        .addStringOption((option) =>
          option
            .setName('mode')
            .setDescription('Answer mentions only (default) or every message')
            .addChoices({ name: 'mentions', value: 'mentions' }, { name: 'all messages', value: 'all' }),
        )
        .addStringOption((option) =>
          option
            .setName('scope')
            .setDescription('This channel (default) or the whole server')
            .addChoices({ name: 'this channel', value: 'channel' }, { name: 'server default', value: 'default' }),
        ),
    )
    .addSubcommand((sub) => sub.setName('settings').setDescription("Show the settings of this channel's chatbot"))
    .addSubcommand((sub) =>
      sub
        .setName('set')
        .setDescription("Change a setting of this channel's chatbot")
        .addStringOption((option) =>
          option
            .setName('field')
            .setDescription('The setting')
            .setRequired(true)
            .addChoices(...SETTING_FIELDS.map((field) => ({ name: field, value: field }))),
        )
        .addStringOption((option) =>
          option
            .setName('value')
            .setDescription('The new value (lists: messages separated by |, domains by commas)')
            .setRequired(true),
        ),
    )
    .addSubcommand((sub) =>
      sub
        .setName('leads')
        .setDescription('Leads the chatbot collected')
        .addStringOption((option) => option.setName('start_date').setDescription('From this day (YYYY-MM-DD)'))
        .addStringOption((option) => option.setName('end_date').setDescription('Until this day (YYYY-MM-DD)')),
    )
    .addSubcommand((sub) =>
      sub
        .setName('digest')
        .setDescription('Daily lead digest in this channel')
        .addStringOption((option) =>
          option
            .setName('state')
            .setDescription('On or off')
            .setRequired(true)
            .addChoices({ name: 'on', value: 'on' }, { name: 'off', value: 'off' }),
        )
        .addStringOption((option) => option.setName('time').setDescription('HH:MM, 24-hour (default 09:00)'))
        .addStringOption((option) =>
          option.setName('timezone').setDescription('IANA time zone, e.g. Europe/Oslo (default UTC)'),
        ),
    )
    .addSubcommand((sub) =>
      sub.setName('unanswered').setDescription("Questions this channel's chatbot could not answer, to answer them"),
    )
    .addSubcommand((sub) =>
      sub
        .setName('learn')
        .setDescription("Teach this channel's chatbot a website (read in the background)")
        .addStringOption((option) => option.setName('url').setDescription('Where the crawl starts, e.g. https://help.example.com/').setRequired(true)),
    )
    .addSubcommand((sub) => sub.setName('sources').setDescription("What this channel's chatbot knows, with each source's status"))
    .addSubcommand((sub) => sub.setName('resolve').setDescription('Inside a handoff thread: hand the conversation back to the chatbot'))
    .toJSON();
}

/** The subcommand's options in the positional order ../commands.ts reads them. */
function commandInput(interaction: ChatInputCommandInteraction): CommandInput {
  const name = interaction.options.getSubcommand(true);
  const text = (option: string) => interaction.options.getString(option) ?? '';
  const args: Record<string, string[]> = {
    use: [text('chatbot'), text('mode'), text('scope')],
    set: [text('field'), text('value')],
    leads: [text('start_date'), text('end_date')],
    digest: [text('state'), text('time'), text('timezone')],
    learn: [text('url')],
  };
  return { name, args: args[name] ?? [] };
}

function toDiscordReply(reply: CommandReply) {
  const files = reply.attachment
    ? [new AttachmentBuilder(Buffer.from(reply.attachment.content, 'utf8'), { name: reply.attachment.filename })]
    : [];
  const components = reply.questions ? answerRows(reply.questions) : [];
  return { content: truncateMessage(reply.text, DISCORD_MESSAGE_LIMIT), files, components };
}

/** Whether the user may administer: listed by DISCORD_ADMIN_USER_IDS, or Manage Server in this server. */
export function isDiscordAdmin(
  interaction: Pick<Interaction, 'user' | 'memberPermissions'> & { inGuild(): boolean },
  adminUserIds: readonly string[],
): boolean {
  return (
    adminUserIds.includes(interaction.user.id) ||
    (interaction.inGuild() && (interaction.memberPermissions?.has(PermissionFlagsBits.ManageGuild) ?? false))
  );
}

export type InteractionHandlerOptions = {
  hub: HubClient;
  /** Users who may administer besides members with Manage Server. */
  adminUserIds: readonly string[];
  logger: Logger;
  /** Says in the channel when a website `learn` started is done. */
  learning?: LearnWatcher;
};

export function createInteractionHandler(options: InteractionHandlerOptions): (interaction: Interaction) => Promise<void> {
  const { hub, adminUserIds, logger, learning: watcher } = options;

  /** Watches a website the command started, to tell the admin privately when it is done. */
  const watchLearning = (interaction: ChatInputCommandInteraction) => (learning: Learning) =>
    watcher?.watch({
      hub,
      learning,
      words: DISCORD_WORDS,
      // Privately, as the command's reply: a follow-up of its interaction (whose token lasts 15 minutes).
      post: (text) => interaction.followUp({ content: truncateMessage(text, DISCORD_MESSAGE_LIMIT), flags: MessageFlags.Ephemeral }),
    }) ?? false;

  return async function onInteraction(interaction: Interaction): Promise<void> {
    if (!interaction.isChatInputCommand() || interaction.commandName !== COMMAND_NAME) return;
    try {
      const input = commandInput(interaction);
      const channel = interaction.channel;
      // A thread belongs to its channel's binding.
      const channelId = (channel?.isThread() ? channel.parentId : undefined) ?? interaction.channelId;
      const threadId = channel?.isThread() ? channel.id : undefined;
      const isAdmin = isDiscordAdmin(interaction, adminUserIds);
      const context = {
        hub,
        platform: 'discord' as const,
        workspaceId: interaction.guildId ?? DM_WORKSPACE,
        channelId,
        threadId,
        isAdmin,
        words: DISCORD_WORDS,
        watchLearning: watchLearning(interaction),
        checkChannel: async (need: ChannelNeed) => checkChannel(interaction, need),
        asTyped,
      };
      if (input.name === 'help') {
        // Nothing to wait for: answer at once (callback type 4).
        await interaction.reply({ ...toDiscordReply(await runCommand(input, context)), flags: MessageFlags.Ephemeral });
        return;
      }
      // The hub may take longer than Discord's 3 s: acknowledge (type 5), then edit the answer in.
      await interaction.deferReply({ flags: MessageFlags.Ephemeral });
      await interaction.editReply(toDiscordReply(await runCommand(input, context)));
    } catch (error) {
      logger.error({ err: error, interactionId: interaction.id }, 'could not answer a /chatbot command');
      const failure = { content: COMMAND_FAILED, files: [], components: [] };
      if (interaction.deferred || interaction.replied) await interaction.editReply(failure).catch(() => undefined);
      else await interaction.reply({ ...failure, flags: MessageFlags.Ephemeral }).catch(() => undefined);
    }
  };
}
