import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { WebSocketServer, type RawData, type WebSocket } from 'ws';

// A local Discord: the REST API v10 (the routes the adapter uses, with 429s on demand) and the
// gateway (WebSocket, JSON, no compression) on one port, so discord.js runs unmodified against
// it. Point the client's REST at `apiUrl`; the gateway address comes from GET /gateway/bot, and
// a resumed session reconnects to READY's `resume_gateway_url`, a different path of this server.
// Threads started from a message share its id (THREAD_CREATE announces them); messages carry
// embeds and buttons within Discord's limits; a component's update (callback 7, or 6 then an edit
// of @original) changes the clicked message; members may have server nicknames.
// Everything the bot does is recorded for assertions; anything off-protocol lands in `violations`.

export type ApiUser = { id: string; username: string; global_name: string | null; discriminator: string; avatar: null; bot?: boolean };

export type ChannelKind = 'text' | 'thread' | 'dm';
export type FakeChannel = {
  id: string;
  kind: ChannelKind;
  name: string;
  parentId?: string;
  ownerId?: string;
  /** Threads: archived (hidden from the active list; a new message brings it back unless locked) and locked. */
  archived?: boolean;
  locked?: boolean;
  /** Text channels: @everyone may not view it (a channel for the team only). */
  teamOnly?: boolean;
  /** Text channels: the bot may not view it either (a team-only channel the bot was not added to). */
  hiddenFromBot?: boolean;
  /** The server it is in, when not the fake's own (see `addGuild`). */
  guildId?: string;
};

/** An embed as Discord stores it (the parts a bot sets). */
export type ApiEmbed = {
  title?: string;
  description?: string;
  url?: string;
  color?: number;
  fields?: { name: string; value: string; inline?: boolean }[];
  footer?: { text: string };
  author?: { name: string };
};

export type ApiMessage = {
  id: string;
  channel_id: string;
  guild_id?: string;
  author: ApiUser;
  content: string;
  timestamp: string;
  edited_timestamp: string | null;
  tts: boolean;
  mention_everyone: boolean;
  mentions: ApiUser[];
  mention_roles: string[];
  attachments: unknown[];
  embeds: ApiEmbed[];
  pinned: boolean;
  type: number;
  flags: number;
  message_reference?: { message_id?: string; channel_id?: string; guild_id?: string; fail_if_not_exists?: boolean };
  /** The thread started from this message (with flags bit 5, HAS_THREAD). */
  thread?: unknown;
  /** What the sender named it with (at most 25 characters). */
  nonce?: string;
  /** Action rows of buttons (type 1 rows of type 2 buttons with a custom_id), when the bot added some. */
  components?: {
    type: number;
    components: { type: number; style: number; label?: string; emoji?: { name?: string; id?: string }; custom_id?: string }[];
  }[];
};

export type RecordedFile = { field: string; filename: string; contentType: string; text: string };

export type RecordedRequest = {
  method: string;
  /** Path under /api/v10, e.g. /channels/123/messages. */
  path: string;
  query: URLSearchParams;
  authorization: string | undefined;
  /** JSON body, or the `payload_json` part of a multipart body. */
  body: unknown;
  files: RecordedFile[];
  status: number;
  at: number;
};

export type InteractionResponse = { callback: RecordedRequest | undefined; edits: RecordedRequest[]; followUps: RecordedRequest[] };

/** 2: an application command, 3: a message component, 5: a modal submission. */
type InteractionType = 2 | 3 | 5;

type ModalData = { custom_id: string; title: string; components: { type: number; components: { type: number; id?: number; custom_id: string; label?: string; style?: number; placeholder?: string; max_length?: number }[] }[] };

/** A modal (callback type 9) as Discord checks it: custom id ≤ 100, title 1–45, 1–5 rows of one text input each. */
function modalViolations(data: unknown): string[] {
  const modal = (data ?? {}) as Partial<ModalData>;
  const found: string[] = [];
  if (typeof modal.custom_id !== 'string' || modal.custom_id.length === 0 || modal.custom_id.length > 100) found.push('modal custom_id');
  if (typeof modal.title !== 'string' || modal.title.length === 0 || modal.title.length > 45) found.push('modal title');
  const rows = modal.components ?? [];
  if (rows.length === 0 || rows.length > 5) found.push('modal rows');
  for (const row of rows) {
    const [input, ...more] = row.components ?? [];
    if (row.type !== 1 || !input || more.length > 0 || input.type !== 4) {
      found.push('modal row');
      continue;
    }
    if (!input.custom_id || input.custom_id.length > 100) found.push('text input custom_id');
    if (!input.label || input.label.length > 45) found.push('text input label');
    if (input.style !== 1 && input.style !== 2) found.push('text input style');
    if ((input.placeholder?.length ?? 0) > 100) found.push('text input placeholder');
    if ((input.max_length ?? 0) > 4000) found.push('text input max_length');
  }
  return found;
}

export type CommandOption = { name: string; value: string };

// Gateway opcodes and intents (discord-api-types names them; spelled out here as on the wire).
const OP = { DISPATCH: 0, HEARTBEAT: 1, IDENTIFY: 2, RESUME: 6, RECONNECT: 7, INVALID_SESSION: 9, HELLO: 10, HEARTBEAT_ACK: 11 };
export const INTENTS = { Guilds: 1 << 0, GuildMessages: 1 << 9, DirectMessages: 1 << 12, MessageContent: 1 << 15 };
export const PERMISSIONS = { ManageGuild: 1n << 5n, SendMessages: 1n << 11n, ViewChannel: 1n << 10n, ReadMessageHistory: 1n << 16n };
const MEMBER_PERMISSIONS = PERMISSIONS.ViewChannel | PERMISSIONS.SendMessages | PERMISSIONS.ReadMessageHistory;
/** What the README's invite link grants the bot (View Channels, Send Messages, Embed Links, Attach Files, …). */
const BOT_PERMISSIONS = 309_237_763_072n;

const CHANNEL_TYPE: Record<ChannelKind, number> = { text: 0, dm: 1, thread: 11 };

const DISCORD_EPOCH = 1_420_070_400_000n;
let increment = 0n;
/** Snowflakes that grow with time, as Discord's do. */
export function snowflake(): string {
  increment = (increment + 1n) % 4096n;
  return ((BigInt(Date.now()) - DISCORD_EPOCH) << 22n | increment).toString();
}

export function user(username: string, extra: Partial<ApiUser> = {}): ApiUser {
  const globalName = username.charAt(0).toUpperCase() + username.slice(1);
  return { id: snowflake(), username, global_name: globalName, discriminator: '0', avatar: null, ...extra };
}

type Session = { id: string; seq: number; events: { s: number; t: string; d: unknown }[]; socket: WebSocket | undefined };

type RateLimitRule = { method: string; path: RegExp; retryAfter: number; global: boolean };
type FailureRule = { method: string; path: RegExp; status: number; body: { message: string; code: number } };

export type FakeDiscordOptions = {
  token: string;
  /** How often the client must heartbeat. */
  heartbeatIntervalMs?: number;
  /** The application's "Public Bot" setting: anyone may add the bot to their server (off unless given). */
  botPublic?: boolean;
};

export type FakeDiscord = Awaited<ReturnType<typeof startFakeDiscord>>;

/** Discord's limits on buttons: at most 5 action rows of at most 5 buttons, each with a label (≤ 80) or an emoji, custom ids ≤ 100. */
function validComponents(rows: NonNullable<ApiMessage['components']>): boolean {
  return (
    rows.length <= 5 &&
    rows.every(
      (row) =>
        row.type === 1 &&
        row.components.length >= 1 &&
        row.components.length <= 5 &&
        row.components.every(
          (button) =>
            button.type === 2 &&
            (button.label?.length ?? 0) <= 80 &&
            (Boolean(button.label) || Boolean(button.emoji?.name ?? button.emoji?.id)) &&
            typeof button.custom_id === 'string' &&
            button.custom_id.length >= 1 &&
            button.custom_id.length <= 100,
        ),
    )
  );
}

/**
 * What Discord refuses in a message's embeds: more than 10; a title or author name over 256, a
 * description over 4096, more than 25 fields, a field name over 256 or value over 1024 (both
 * required), a footer over 2048; and over 6000 characters in all of them together.
 */
function embedViolations(embeds: unknown): string[] {
  if (!Array.isArray(embeds)) return ['embeds is not an array'];
  const found: string[] = [];
  if (embeds.length > 10) found.push('more than 10 embeds');
  let total = 0;
  const text = (value: unknown, limit: number, what: string, required = false) => {
    if (value === undefined && !required) return;
    if (typeof value !== 'string' || (required && value.length === 0) || value.length > limit) found.push(`embed ${what}`);
    else total += value.length;
  };
  for (const embed of embeds as ApiEmbed[]) {
    text(embed.title, 256, 'title');
    text(embed.description, 4096, 'description');
    text(embed.author?.name, 256, 'author name');
    text(embed.footer?.text, 2048, 'footer');
    const fields = embed.fields ?? [];
    if (fields.length > 25) found.push('more than 25 embed fields');
    for (const field of fields) {
      text(field.name, 256, 'field name', true);
      text(field.value, 1024, 'field value', true);
    }
  }
  if (total > 6000) found.push(`embeds of ${total} characters in all`);
  return found;
}

export async function startFakeDiscord(options: FakeDiscordOptions) {
  const token = options.token;
  const bot = user('switchboard', { bot: true, global_name: null });
  const applicationId = bot.id;
  const guildId = snowflake();
  /** Servers the bot was added to besides the fake's own, by id; left ones are removed. */
  const otherGuilds = new Set<string>();
  /** Servers the bot left (DELETE /users/@me/guilds/{id}). */
  const leftGuilds: string[] = [];
  /** Servers out in an outage (see `outage`). */
  const unavailableGuilds = new Set<string>();
  const guildOf = (channel: FakeChannel) => channel.guildId ?? guildId;
  const channels = new Map<string, FakeChannel>();
  const messages = new Map<string, ApiMessage[]>();
  const requests: RecordedRequest[] = [];
  const violations: string[] = [];
  /** Live interactions by token: where they happened and whether they are a command (2) or a component (3). */
  const interactionTokens = new Map<string, { channelId: string; type: InteractionType; messageId?: string; answered?: number }>();
  const rateLimits: RateLimitRule[] = [];
  const failures: FailureRule[] = [];
  const registeredCommands: { scope: string; commands: unknown[] }[] = [];
  /** The commands each application has now, by application id and scope ('global' or `guild:{id}`). */
  const commandSets = new Map<string, Record<string, unknown>[]>();
  const commandsOf = (app: string, scope: string) => commandSets.get(`${app}/${scope}`) ?? [];
  const apiCommand = (app: string, guild: string | undefined, command: Record<string, unknown>) => ({
    id: snowflake(),
    application_id: app,
    version: snowflake(),
    type: 1,
    default_member_permissions: null,
    nsfw: false,
    ...(guild ? { guild_id: guild } : {}),
    ...command,
  });
  const gateway = {
    connections: [] as { path: string; query: URLSearchParams }[],
    identifies: [] as Record<string, unknown>[],
    resumes: [] as Record<string, unknown>[],
    heartbeats: 0,
    acks: 0,
  };
  // Every identified session receives every event, as Discord sends them to each unsharded connection.
  const sessions: Session[] = [];

  const addChannel = (kind: ChannelKind, name: string, extra: Partial<FakeChannel> = {}): FakeChannel => {
    const channel = { id: snowflake(), kind, name, ...extra };
    channels.set(channel.id, channel);
    messages.set(channel.id, []);
    return channel;
  };
  const general = addChannel('text', 'general');

  const apiChannel = (channel: FakeChannel) => {
    if (channel.kind === 'dm') return { id: channel.id, type: 1, last_message_id: null, flags: 0, recipients: [] };
    return {
      id: channel.id,
      type: CHANNEL_TYPE[channel.kind],
      guild_id: guildOf(channel),
      name: channel.name,
      position: 0,
      // A team-only channel denies @everyone (whose role id is the server's) View Channel.
      permission_overwrites: channel.teamOnly ? [{ id: guildOf(channel), type: 0, allow: '0', deny: PERMISSIONS.ViewChannel.toString() }] : [],
      nsfw: false,
      parent_id: channel.parentId ?? null,
      last_message_id: null,
      rate_limit_per_user: 0,
      flags: 0,
      ...(channel.kind === 'thread'
        ? {
            owner_id: channel.ownerId,
            member_count: 1,
            message_count: 0,
            total_message_sent: 0,
            thread_metadata: {
              archived: channel.archived ?? false,
              auto_archive_duration: 1440,
              archive_timestamp: new Date().toISOString(),
              locked: channel.locked ?? false,
            },
          }
        : { topic: null }),
    };
  };

  /** Server nicknames (a member's display name in this server, before their global name). */
  const nicknames = new Map<string, string>();
  const member = (person: ApiUser, permissions = MEMBER_PERMISSIONS) => ({
    user: person,
    roles: [],
    joined_at: new Date().toISOString(),
    deaf: false,
    mute: false,
    flags: 0,
    nick: nicknames.get(person.id) ?? null,
    avatar: null,
    premium_since: null,
    pending: false,
    communication_disabled_until: null,
    permissions: permissions.toString(),
  });

  const guildCreate = (id = guildId) => ({
    id,
    name: id === guildId ? 'Fake server' : 'Another server',
    icon: null,
    owner_id: snowflake(),
    unavailable: false,
    member_count: 2,
    large: false,
    joined_at: new Date().toISOString(),
    features: [],
    roles: [
      {
        id,
        name: '@everyone',
        permissions: MEMBER_PERMISSIONS.toString(),
        position: 0,
        color: 0,
        hoist: false,
        managed: false,
        mentionable: false,
        flags: 0,
      },
    ],
    emojis: [],
    stickers: [],
    members: [member(bot)],
    channels: [...channels.values()].filter((channel) => channel.kind === 'text' && guildOf(channel) === id).map(apiChannel),
    threads: [...channels.values()].filter((channel) => channel.kind === 'thread' && guildOf(channel) === id).map(apiChannel),
    voice_states: [],
    presences: [],
    stage_instances: [],
    guild_scheduled_events: [],
    soundboard_sounds: [],
  });

  // ---- gateway --------------------------------------------------------------------------------

  const send = (socket: WebSocket, payload: unknown) => socket.send(JSON.stringify(payload));

  function dispatch(t: string, d: unknown, to: Session[] = sessions): void {
    for (const session of to) {
      session.seq += 1;
      const event = { s: session.seq, t, d };
      session.events.push(event);
      // Events for a dropped connection wait, as Discord's do, and are replayed on resume.
      if (session.socket) send(session.socket, { op: OP.DISPATCH, ...event });
    }
  }

  const wss = new WebSocketServer({ noServer: true });

  function onGatewayConnection(socket: WebSocket, path: string, query: URLSearchParams): void {
    gateway.connections.push({ path, query });
    if (query.get('v') !== '10') violations.push(`gateway version ${query.get('v')}`);
    if (query.get('encoding') !== 'json') violations.push(`gateway encoding ${query.get('encoding')}`);
    if (query.has('compress')) violations.push(`gateway compression ${query.get('compress')}`);
    let identified = false;
    send(socket, { op: OP.HELLO, d: { heartbeat_interval: options.heartbeatIntervalMs ?? 41_250 } });

    socket.on('message', (raw: RawData) => {
      let payload: { op: number; d: Record<string, unknown> | number | null };
      try {
        payload = JSON.parse(raw.toString()) as typeof payload;
      } catch {
        violations.push('gateway payload is not JSON');
        socket.close(4002, 'Error while decoding payload.');
        return;
      }
      const d = payload.d as Record<string, unknown>;
      switch (payload.op) {
        case OP.HEARTBEAT:
          gateway.heartbeats += 1;
          gateway.acks += 1;
          send(socket, { op: OP.HEARTBEAT_ACK });
          return;
        case OP.IDENTIFY: {
          gateway.identifies.push(d);
          if (identified) return void socket.close(4005, 'Already authenticated.');
          if (d.token !== token) return void socket.close(4004, 'Authentication failed.');
          const properties = d.properties as Record<string, unknown> | undefined;
          if (!properties?.os || !properties.browser || !properties.device) violations.push('identify without properties');
          identified = true;
          const session: Session = { id: randomBytes(16).toString('hex'), seq: 0, events: [], socket };
          sessions.push(session);
          const { port } = server.address() as AddressInfo;
          dispatch('READY', {
            v: 10,
            user: bot,
            guilds: [guildId, ...otherGuilds].map((id) => ({ id, unavailable: true })),
            session_id: session.id,
            resume_gateway_url: `ws://127.0.0.1:${port}/resume`,
            shard: [0, 1],
            application: { id: applicationId, flags: 0 },
            private_channels: [],
            presences: [],
            relationships: [],
            user_settings: {},
            geo_ordered_rtc_regions: [],
            guild_join_requests: [],
          }, [session]);
          // Then each server in full, or, for one out in an outage, GUILD_DELETE marking it unavailable.
          for (const id of [guildId, ...otherGuilds]) {
            if (unavailableGuilds.has(id)) dispatch('GUILD_DELETE', { id, unavailable: true }, [session]);
            else dispatch('GUILD_CREATE', guildCreate(id), [session]);
          }
          return;
        }
        case OP.RESUME: {
          gateway.resumes.push(d);
          if (d.token !== token) return void socket.close(4004, 'Authentication failed.');
          const session = sessions.find((known) => known.id === d.session_id);
          if (!session) return void send(socket, { op: OP.INVALID_SESSION, d: false });
          identified = true;
          session.socket = socket;
          const replay = session.events.filter((event) => event.s > Number(d.seq));
          for (const event of replay) send(socket, { op: OP.DISPATCH, ...event });
          dispatch('RESUMED', {}, [session]);
          return;
        }
        default:
          violations.push(`unexpected gateway op ${payload.op}`);
      }
    });
    socket.on('close', () => {
      for (const session of sessions) if (session.socket === socket) session.socket = undefined;
    });
  }

  // ---- REST -----------------------------------------------------------------------------------

  const json = (response: ServerResponse, status: number, body?: unknown) => {
    if (body === undefined) {
      response.writeHead(status).end();
      return;
    }
    response.writeHead(status, { 'Content-Type': 'application/json' }).end(JSON.stringify(body));
  };

  async function readBody(request: IncomingMessage): Promise<{ body: unknown; files: RecordedFile[] }> {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const raw = Buffer.concat(chunks);
    const type = request.headers['content-type'] ?? '';
    if (raw.length === 0) return { body: undefined, files: [] };
    if (type.startsWith('multipart/form-data')) {
      const form = await new Response(raw, { headers: { 'Content-Type': type } }).formData();
      const files: RecordedFile[] = [];
      let body: unknown;
      for (const [field, value] of form.entries()) {
        if (typeof value === 'string') {
          if (field === 'payload_json') body = JSON.parse(value);
          else violations.push(`multipart text part ${field}`);
        } else {
          files.push({ field, filename: value.name, contentType: value.type, text: await value.text() });
        }
      }
      return { body, files };
    }
    if (!type.startsWith('application/json')) violations.push(`request body of type ${type}`);
    return { body: JSON.parse(raw.toString('utf8')), files: [] };
  }

  const botMessage = (channelId: string, body: Record<string, unknown>, files: RecordedFile[]): ApiMessage => {
    const channel = channels.get(channelId);
    const reference = body.message_reference as ApiMessage['message_reference'];
    return {
      id: snowflake(),
      channel_id: channelId,
      ...(channel && channel.kind !== 'dm' ? { guild_id: guildOf(channel) } : {}),
      author: bot,
      content: String(body.content ?? ''),
      timestamp: new Date().toISOString(),
      edited_timestamp: null,
      tts: false,
      mention_everyone: false,
      mentions: [],
      mention_roles: [],
      attachments: files.map((file, index) => ({
        id: snowflake(),
        filename: file.filename,
        size: Buffer.byteLength(file.text),
        url: `https://cdn.invalid/${index}/${file.filename}`,
        proxy_url: `https://cdn.invalid/${index}/${file.filename}`,
        content_type: file.contentType,
      })),
      embeds: [],
      pinned: false,
      type: reference ? 19 : 0,
      flags: Number(body.flags ?? 0),
      ...(reference ? { message_reference: { channel_id: channelId, ...reference } } : {}),
    };
  };

  type Route = {
    method: string;
    path: RegExp;
    /** Interaction routes are authorised by their token, not the bot's. */
    bot: boolean;
    handle: (match: RegExpExecArray, recorded: RecordedRequest, response: ServerResponse) => void;
  };

  const channelOr404 = (id: string | undefined, response: ServerResponse): FakeChannel | undefined => {
    const channel = id === undefined ? undefined : channels.get(id);
    if (!channel) json(response, 404, { message: 'Unknown Channel', code: 10003 });
    return channel;
  };

  /** Applies an interaction's update (content, components) to the message whose button was clicked. */
  const editClicked = (interaction: { channelId: string; messageId?: string }, body: Record<string, unknown>): ApiMessage | undefined => {
    const message = messages.get(interaction.channelId)?.find((item) => item.id === interaction.messageId);
    if (!message) {
      violations.push('an update of a message no button was clicked on');
      return undefined;
    }
    const components = body.components as ApiMessage['components'];
    if (components !== undefined && !validComponents(components)) {
      violations.push('update with invalid components');
      return undefined;
    }
    if (body.content !== undefined && (typeof body.content !== 'string' || body.content.length > 2000)) {
      violations.push(`update content of ${String(body.content).length} characters`);
      return undefined;
    }
    if (typeof body.content === 'string') message.content = body.content;
    if (components !== undefined) message.components = components;
    message.edited_timestamp = new Date().toISOString();
    return message;
  };

  /** The bot reaches its own application's commands only, and a server's only while it is in it. */
  const commandsReachable = (app: string | undefined, guild: string | undefined, response: ServerResponse) => {
    const reachable = app === applicationId && (guild === undefined || guild === guildId || otherGuilds.has(guild));
    if (!reachable) json(response, 403, { message: 'Missing Access', code: 50001 });
    return reachable;
  };

  const routes: Route[] = [
    {
      method: 'GET',
      path: /^\/applications\/@me$/,
      bot: true,
      handle: (_match, _recorded, response) =>
        json(response, 200, { id: applicationId, name: 'Switchboard', bot_public: options.botPublic ?? false, bot_require_code_grant: false, flags: 0 }),
    },
    {
      // Leave Guild: the bot leaves a server (never its own, here), announced as GUILD_DELETE.
      method: 'DELETE',
      path: /^\/users\/@me\/guilds\/(\d+)$/,
      bot: true,
      handle: ([, id], _recorded, response) => {
        if (!otherGuilds.delete(id as string)) return json(response, 404, { message: 'Unknown Guild', code: 10004 });
        leftGuilds.push(id as string);
        json(response, 204);
        dispatch('GUILD_DELETE', { id });
      },
    },
    {
      method: 'GET',
      path: /^\/gateway\/bot$/,
      bot: true,
      handle: (_match, _recorded, response) => {
        const { port } = server.address() as AddressInfo;
        json(response, 200, {
          url: `ws://127.0.0.1:${port}`,
          shards: 1,
          session_start_limit: { total: 1000, remaining: 999, reset_after: 14_400_000, max_concurrency: 1 },
        });
      },
    },
    {
      method: 'PUT',
      path: /^\/applications\/(\d+)(?:\/guilds\/(\d+))?\/commands$/,
      bot: true,
      handle: ([, app, guild], recorded, response) => {
        if (!commandsReachable(app, guild, response)) return;
        const commands = recorded.body as Record<string, unknown>[];
        const scope = guild ? `guild:${guild}` : 'global';
        registeredCommands.push({ scope, commands });
        const set = commands.map((command) => apiCommand(applicationId, guild, command));
        commandSets.set(`${applicationId}/${scope}`, set);
        json(response, 200, set);
      },
    },
    {
      method: 'GET',
      path: /^\/applications\/(\d+)(?:\/guilds\/(\d+))?\/commands$/,
      bot: true,
      handle: ([, app, guild], _recorded, response) => {
        if (!commandsReachable(app, guild, response)) return;
        json(response, 200, commandsOf(applicationId, guild ? `guild:${guild}` : 'global'));
      },
    },
    {
      method: 'DELETE',
      path: /^\/applications\/(\d+)(?:\/guilds\/(\d+))?\/commands\/(\d+)$/,
      bot: true,
      handle: ([, app, guild, id], _recorded, response) => {
        if (!commandsReachable(app, guild, response)) return;
        const scope = guild ? `guild:${guild}` : 'global';
        const set = commandsOf(applicationId, scope);
        if (!set.some((command) => command.id === id)) return json(response, 404, { message: 'Unknown application command', code: 10063 });
        commandSets.set(`${applicationId}/${scope}`, set.filter((command) => command.id !== id));
        json(response, 204);
      },
    },
    {
      method: 'GET',
      path: /^\/channels\/(\d+)\/messages$/,
      bot: true,
      handle: ([, channelId], recorded, response) => {
        if (!channelOr404(channelId, response)) return;
        const limit = Math.min(Number(recorded.query.get('limit') ?? 50), 100);
        const before = recorded.query.get('before');
        const list = (messages.get(channelId as string) ?? [])
          .filter((message) => !before || BigInt(message.id) < BigInt(before))
          .slice(-limit)
          .reverse();
        json(response, 200, list);
      },
    },
    {
      method: 'POST',
      path: /^\/channels\/(\d+)\/messages$/,
      bot: true,
      handle: ([, channelId], recorded, response) => {
        const target = channelOr404(channelId, response);
        if (!target) return;
        if (target.hiddenFromBot) return json(response, 403, { message: 'Missing Access', code: 50001 });
        const body = (recorded.body ?? {}) as Record<string, unknown>;
        const embeds = body.embeds as ApiEmbed[] | undefined;
        // Text, embeds or files: a message needs one of them; its text at most 2000 characters.
        if (body.content === undefined && !embeds?.length && recorded.files.length === 0) {
          violations.push('empty message');
          return json(response, 400, { message: 'Cannot send an empty message', code: 50006 });
        }
        if (body.content !== undefined && (typeof body.content !== 'string' || body.content.length > 2000)) {
          violations.push(`message content of ${String(body.content).length} characters`);
          return json(response, 400, { message: 'Invalid Form Body', code: 50035 });
        }
        const components = body.components as ApiMessage['components'];
        if (components !== undefined && !validComponents(components)) {
          violations.push('message with invalid components');
          return json(response, 400, { message: 'Invalid Form Body', code: 50035 });
        }
        const embedProblems = embeds === undefined ? [] : embedViolations(embeds);
        if (embedProblems.length > 0) {
          violations.push(...embedProblems);
          return json(response, 400, { message: 'Invalid Form Body', code: 50035 });
        }
        const nonce = body.nonce === undefined ? undefined : String(body.nonce);
        if (nonce !== undefined && nonce.length > 25) {
          violations.push(`nonce of ${nonce.length} characters`);
          return json(response, 400, { message: 'Invalid Form Body', code: 50035 });
        }
        // enforce_nonce: a message the bot already sent with this nonce is answered again, and no new one made.
        const sent = body.enforce_nonce === true && nonce !== undefined ? messages.get(channelId as string)?.find((item) => item.nonce === nonce) : undefined;
        if (sent) return json(response, 200, sent);
        const channel = channels.get(channelId as string) as FakeChannel;
        if (channel.locked) return json(response, 403, { message: 'Thread is locked', code: 160005 });
        // A message in an archived thread brings it back.
        if (channel.archived) channel.archived = false;
        const message = {
          ...botMessage(channelId as string, body, recorded.files),
          ...(embeds?.length ? { embeds } : {}),
          ...(components?.length ? { components } : {}),
          ...(nonce !== undefined && { nonce }),
        };
        messages.get(channelId as string)?.push(message);
        json(response, 200, message);
        // Discord tells the bot of its own messages too.
        dispatch('MESSAGE_CREATE', { ...message, channel_type: CHANNEL_TYPE[channel.kind] });
      },
    },
    {
      method: 'PATCH',
      path: /^\/channels\/(\d+)\/messages\/(\d+)$/,
      bot: true,
      handle: ([, channelId, messageId], recorded, response) => {
        const message = messages.get(channelId as string)?.find((item) => item.id === messageId);
        if (!message) return json(response, 404, { message: 'Unknown Message', code: 10008 });
        if (message.author.id !== bot.id) {
          return json(response, 403, { message: 'Cannot edit a message authored by another user', code: 50005 });
        }
        const body = recorded.body as Record<string, unknown>;
        // An edit may change the content, the components, or both.
        const components = body.components as ApiMessage['components'];
        if (components !== undefined && !validComponents(components)) {
          violations.push('edit with invalid components');
          return json(response, 400, { message: 'Invalid Form Body', code: 50035 });
        }
        if ((components === undefined || body.content !== undefined) && (typeof body.content !== 'string' || body.content.length > 2000)) {
          violations.push(`edit content of ${String(body.content).length} characters`);
          return json(response, 400, { message: 'Invalid Form Body', code: 50035 });
        }
        if (typeof body.content === 'string') message.content = body.content;
        if (components !== undefined) message.components = components;
        message.edited_timestamp = new Date().toISOString();
        json(response, 200, message);
      },
    },
    {
      method: 'DELETE',
      path: /^\/channels\/(\d+)\/messages\/(\d+)$/,
      bot: true,
      handle: ([, channelId, messageId], _recorded, response) => {
        const list = messages.get(channelId as string) ?? [];
        const index = list.findIndex((item) => item.id === messageId);
        if (index === -1) return json(response, 404, { message: 'Unknown Message', code: 10008 });
        list.splice(index, 1);
        json(response, 204);
      },
    },
    {
      method: 'GET',
      path: /^\/channels\/(\d+)$/,
      bot: true,
      handle: ([, channelId], _recorded, response) => {
        const channel = channelOr404(channelId, response);
        if (channel) json(response, 200, apiChannel(channel));
      },
    },
    {
      // Modify Channel, as the bot uses it on threads: archive, lock, rename.
      method: 'PATCH',
      path: /^\/channels\/(\d+)$/,
      bot: true,
      handle: ([, channelId], recorded, response) => {
        const channel = channelOr404(channelId, response);
        if (!channel) return;
        const body = (recorded.body ?? {}) as { name?: unknown; archived?: unknown; locked?: unknown };
        if (channel.kind !== 'thread' && (body.archived !== undefined || body.locked !== undefined)) {
          violations.push('thread settings on a channel that is not a thread');
          return json(response, 400, { message: 'Invalid Form Body', code: 50035 });
        }
        if (body.name !== undefined && (typeof body.name !== 'string' || body.name.length < 1 || body.name.length > 100)) {
          violations.push('channel name');
          return json(response, 400, { message: 'Invalid Form Body', code: 50035 });
        }
        // The bot may archive (or lock) the threads it started; other threads need Manage Threads.
        if (channel.ownerId !== bot.id && (body.archived !== undefined || body.locked !== undefined)) {
          return json(response, 403, { message: 'Missing Permissions', code: 50013 });
        }
        if (typeof body.name === 'string') channel.name = body.name;
        if (typeof body.archived === 'boolean') channel.archived = body.archived;
        if (typeof body.locked === 'boolean') channel.locked = body.locked;
        json(response, 200, apiChannel(channel));
        dispatch(channel.kind === 'thread' ? 'THREAD_UPDATE' : 'CHANNEL_UPDATE', apiChannel(channel));
      },
    },
    {
      // Start Thread from Message: a public thread (type 11) whose id is the message's.
      method: 'POST',
      path: /^\/channels\/(\d+)\/messages\/(\d+)\/threads$/,
      bot: true,
      handle: ([, channelId, messageId], recorded, response) => {
        const parent = channelOr404(channelId, response);
        if (!parent) return;
        const root = messages.get(parent.id)?.find((item) => item.id === messageId);
        if (!root) return json(response, 404, { message: 'Unknown Message', code: 10008 });
        if (parent.kind !== 'text') return json(response, 400, { message: 'Cannot execute action on this channel type', code: 50024 });
        if (channels.has(root.id)) return json(response, 400, { message: 'A thread has already been created for this message', code: 160004 });
        const body = (recorded.body ?? {}) as { name?: unknown; auto_archive_duration?: unknown };
        if (typeof body.name !== 'string' || body.name.length < 1 || body.name.length > 100) {
          violations.push(`thread name of ${String(body.name).length} characters`);
          return json(response, 400, { message: 'Invalid Form Body', code: 50035 });
        }
        if (body.auto_archive_duration !== undefined && ![60, 1440, 4320, 10080].includes(Number(body.auto_archive_duration))) {
          violations.push(`auto_archive_duration ${String(body.auto_archive_duration)}`);
          return json(response, 400, { message: 'Invalid Form Body', code: 50035 });
        }
        const thread: FakeChannel = { id: root.id, kind: 'thread', name: body.name, parentId: parent.id, ownerId: bot.id };
        channels.set(thread.id, thread);
        messages.set(thread.id, []);
        root.thread = apiChannel(thread);
        root.flags |= 1 << 5;
        json(response, 201, apiChannel(thread));
        dispatch('THREAD_CREATE', { ...apiChannel(thread), newly_created: true });
      },
    },
    {
      method: 'POST',
      path: /^\/channels\/(\d+)\/typing$/,
      bot: true,
      handle: ([, channelId], _recorded, response) => {
        if (channelOr404(channelId, response)) json(response, 204);
      },
    },
    {
      method: 'POST',
      path: /^\/interactions\/(\d+)\/([^/]+)\/callback$/,
      bot: false,
      handle: ([, , interactionToken], recorded, response) => {
        const interaction = interactionTokens.get(interactionToken as string);
        if (!interaction) return json(response, 404, { message: 'Unknown interaction', code: 10062 });
        // An interaction is answered once.
        if (interaction.answered) return json(response, 400, { message: 'Interaction has already been acknowledged.', code: 40060 });
        const body = recorded.body as { type?: number; data?: { content?: string } };
        interaction.answered = body.type ?? 0;
        // 4 message, 5 deferred message; for components also 6 deferred update (nothing shown), 7
        // the clicked message updated, and 9 a modal; a modal's submission is answered like a
        // component (without a modal).
        const allowed = interaction.type === 2 ? [4, 5, 9] : interaction.type === 3 ? [4, 5, 6, 7, 9] : [4, 5, 6, 7];
        if (!allowed.includes(body.type ?? 0)) violations.push(`interaction callback type ${body.type}`);
        if (body.type === 9) violations.push(...modalViolations(body.data));
        if ((body.data?.content?.length ?? 0) > 2000) violations.push('interaction reply over 2000 characters');
        if (body.type === 7 && !editClicked(interaction, body.data ?? {})) return json(response, 400, { message: 'Invalid Form Body', code: 50035 });
        json(response, 204);
      },
    },
    {
      method: 'PATCH',
      path: /^\/webhooks\/(\d+)\/([^/]+)\/messages\/@original$/,
      bot: false,
      handle: ([, app, interactionToken], recorded, response) => {
        const interaction = interactionTokens.get(interactionToken as string);
        if (app !== applicationId || !interaction) return json(response, 404, { message: 'Unknown Webhook', code: 10015 });
        const body = (recorded.body ?? {}) as Record<string, unknown>;
        if (typeof body.content === 'string' && body.content.length > 2000) violations.push('webhook edit over 2000 characters');
        // After a deferred update (6) or an update (7), the original is the clicked message.
        if (interaction.answered === 6 || interaction.answered === 7) {
          const edited = editClicked(interaction, body);
          return edited ? json(response, 200, edited) : json(response, 400, { message: 'Invalid Form Body', code: 50035 });
        }
        json(response, 200, { ...botMessage(interaction.channelId, body, recorded.files), webhook_id: applicationId, flags: 64 });
      },
    },
    {
      // A follow-up message of an acknowledged interaction (here always ephemeral: only the clicker sees it).
      method: 'POST',
      path: /^\/webhooks\/(\d+)\/([^/]+)$/,
      bot: false,
      handle: ([, app, interactionToken], recorded, response) => {
        const interaction = interactionTokens.get(interactionToken as string);
        if (app !== applicationId || !interaction) return json(response, 404, { message: 'Unknown Webhook', code: 10015 });
        if (!interaction.answered) return json(response, 404, { message: 'Unknown Webhook', code: 10015 });
        const body = (recorded.body ?? {}) as Record<string, unknown>;
        if (typeof body.content !== 'string' || body.content.length === 0 || body.content.length > 2000) violations.push('follow-up content');
        json(response, 200, { ...botMessage(interaction.channelId, body, recorded.files), webhook_id: applicationId });
      },
    },
  ];

  async function onRequest(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const url = new URL(request.url ?? '/', 'http://fake');
    const prefix = '/api/v10';
    const { body, files } = await readBody(request);
    const recorded: RecordedRequest = {
      method: request.method ?? 'GET',
      path: decodeURIComponent(url.pathname.startsWith(prefix) ? url.pathname.slice(prefix.length) : url.pathname),
      query: url.searchParams,
      authorization: request.headers.authorization,
      body,
      files,
      status: 0,
      at: Date.now(),
    };
    requests.push(recorded);
    response.on('finish', () => (recorded.status = response.statusCode));
    if (!url.pathname.startsWith(prefix)) return json(response, 404, { message: '404: Not Found', code: 0 });

    const limit = rateLimits.findIndex((rule) => rule.method === recorded.method && rule.path.test(recorded.path));
    if (limit !== -1) {
      const [rule] = rateLimits.splice(limit, 1) as [RateLimitRule];
      response.writeHead(429, {
        'Content-Type': 'application/json',
        'Retry-After': String(Math.ceil(rule.retryAfter)),
        'X-RateLimit-Limit': '5',
        'X-RateLimit-Remaining': '0',
        'X-RateLimit-Reset-After': String(rule.retryAfter),
        'X-RateLimit-Bucket': 'fake-bucket',
        'X-RateLimit-Scope': rule.global ? 'global' : 'user',
        ...(rule.global ? { 'X-RateLimit-Global': 'true' } : {}),
      });
      response.end(JSON.stringify({ message: 'You are being rate limited.', retry_after: rule.retryAfter, global: rule.global }));
      return;
    }

    const failure = failures.findIndex((rule) => rule.method === recorded.method && rule.path.test(recorded.path));
    if (failure !== -1) {
      const [rule] = failures.splice(failure, 1) as [FailureRule];
      return json(response, rule.status, rule.body);
    }

    for (const route of routes) {
      const match = route.method === recorded.method ? route.path.exec(recorded.path) : null;
      if (!match) continue;
      if (route.bot && recorded.authorization !== `Bot ${token}`) return json(response, 401, { message: '401: Unauthorized', code: 0 });
      if (!route.bot && recorded.authorization !== undefined) violations.push(`${recorded.path} sent the bot token`);
      return route.handle(match, recorded, response);
    }
    violations.push(`unexpected request ${recorded.method} ${recorded.path}`);
    json(response, 404, { message: '404: Not Found', code: 0 });
  }

  const server: Server = createServer((request, response) => {
    onRequest(request, response).catch((error: unknown) => {
      violations.push(`fake failed: ${String(error)}`);
      if (!response.headersSent) json(response, 500, { message: 'fake failure', code: 0 });
    });
  });
  server.on('upgrade', (request, socket, head) => {
    const url = new URL(request.url ?? '/', 'http://fake');
    if (url.pathname !== '/' && url.pathname !== '/resume') {
      socket.destroy();
      return;
    }
    wss.handleUpgrade(request, socket, head, (ws) => onGatewayConnection(ws, url.pathname, url.searchParams));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  // ---- what a test does -------------------------------------------------------------------------

  /** Waits until `condition` holds (polling), else fails with `what`. */
  async function until<T>(what: string, condition: () => T | undefined | false, timeoutMs = 10_000): Promise<T> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const value = condition();
      if (value) return value;
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
      await sleep(15);
    }
  }

  /** Dispatches an interaction (2: command, 3: component, 5: modal submit) as Discord sends it; answers its token. */
  function interact(
    channel: FakeChannel,
    user: ApiUser,
    permissions: bigint,
    specific: { type: InteractionType; data: object; message?: ApiMessage },
  ): string {
    const interactionToken = `itoken-${randomBytes(12).toString('hex')}`;
    interactionTokens.set(interactionToken, { channelId: channel.id, type: specific.type, messageId: specific.message?.id });
    const inGuild = channel.kind !== 'dm';
    dispatch('INTERACTION_CREATE', {
      id: snowflake(),
      application_id: applicationId,
      token: interactionToken,
      version: 1,
      locale: 'en-US',
      // The bot's own permissions in the channel, as Discord computes them.
      app_permissions: (channel.hiddenFromBot ? BOT_PERMISSIONS & ~PERMISSIONS.ViewChannel : BOT_PERMISSIONS).toString(),
      entitlements: [],
      attachment_size_limit: 10_485_760,
      authorizing_integration_owners: inGuild ? { '0': guildOf(channel) } : { '1': user.id },
      context: inGuild ? 0 : 1,
      channel_id: channel.id,
      channel: inGuild ? apiChannel(channel) : { ...apiChannel(channel), recipients: [user] },
      ...(inGuild
        ? {
            guild_id: guildOf(channel),
            guild: { id: guildOf(channel), locale: 'en-US', features: [] },
            guild_locale: 'en-US',
            member: member(user, permissions),
          }
        : { user }),
      ...specific,
    });
    return interactionToken;
  }

  return {
    token,
    bot,
    applicationId,
    guildId,
    general,
    apiUrl: `http://127.0.0.1:${port}/api`,
    requests,
    violations,
    gateway,
    registeredCommands,
    /** The names of the commands an application (the bot's, unless given) has in a scope now: 'global' or `guild:{id}`. */
    commandNames: (scope: string, app = applicationId) => commandsOf(app, scope).map((command) => command.name),
    /** Commands an application (the bot's, unless given) registered in a scope before the bot started. */
    seedCommands(scope: string, names: string[], app = applicationId): void {
      const guild = scope.startsWith('guild:') ? scope.slice('guild:'.length) : undefined;
      commandSets.set(`${app}/${scope}`, [...commandsOf(app, scope), ...names.map((name) => apiCommand(app, guild, { name, description: name }))]);
    },
    until,
    /** The messages of a channel, oldest first. */
    history: (channelId: string) => messages.get(channelId) ?? [],

    /**
     * Someone adds the bot to a server of theirs: announced as GUILD_CREATE (and again to every
     * session that connects while the bot is in it), with one text channel.
     */
    addGuild(id = snowflake()): { guildId: string; channel: FakeChannel } {
      const channel = addChannel('text', 'lobby', { guildId: id });
      otherGuilds.add(id);
      dispatch('GUILD_CREATE', guildCreate(id));
      return { guildId: id, channel };
    },

    /** The servers the bot left, in order. */
    leftGuilds,

    /** An outage takes a server out: GUILD_DELETE with `unavailable`, now and on every connect until `recover`. */
    outage(id: string): void {
      unavailableGuilds.add(id);
      dispatch('GUILD_DELETE', { id, unavailable: true });
    },

    /** The server is back: sent in full again (GUILD_CREATE). */
    recover(id: string): void {
      unavailableGuilds.delete(id);
      dispatch('GUILD_CREATE', guildCreate(id));
    },

    /** A new channel, announced to the client as Discord does (CHANNEL_CREATE / THREAD_CREATE). */
    createChannel(kind: ChannelKind, name: string, extra: Partial<FakeChannel> = {}): FakeChannel {
      const channel = addChannel(kind, name, extra);
      if (kind === 'text') dispatch('CHANNEL_CREATE', apiChannel(channel));
      if (kind === 'thread') dispatch('THREAD_CREATE', { ...apiChannel(channel), newly_created: true });
      return channel;
    },

    /** Gives `person` a nickname in the server (their display name there). */
    setNickname(person: ApiUser, nick: string | null): void {
      if (nick === null) nicknames.delete(person.id);
      else nicknames.set(person.id, nick);
    },

    /** Deletes a channel or thread (as a moderator would), announced as CHANNEL_DELETE / THREAD_DELETE. */
    deleteChannel(channel: FakeChannel): void {
      channels.delete(channel.id);
      messages.delete(channel.id);
      if (channel.kind === 'thread') {
        dispatch('THREAD_DELETE', { id: channel.id, guild_id: guildOf(channel), parent_id: channel.parentId, type: CHANNEL_TYPE.thread });
      } else dispatch('CHANNEL_DELETE', apiChannel(channel));
    },

    /** A channel as the fake holds it (threads the bot started included). */
    channel: (channelId: string) => channels.get(channelId),

    /** A message already in a channel's history (written while the bot was away), maybe a reply: not dispatched. */
    seed(channel: FakeChannel, author: ApiUser, content: string, extra: { replyTo?: ApiMessage } = {}): ApiMessage {
      const reference = extra.replyTo && { message_reference: { message_id: extra.replyTo.id } };
      const message = botMessage(channel.id, { content, ...reference }, []);
      message.author = author;
      message.mentions = [bot, author].filter((person) => content.includes(`<@${person.id}>`));
      messages.get(channel.id)?.push(message);
      return message;
    },

    /** A person's message: stored in the channel and dispatched as MESSAGE_CREATE. */
    say(channel: FakeChannel, author: ApiUser, content: string, extra: { replyTo?: ApiMessage } = {}): ApiMessage {
      const mentioned = [...content.matchAll(/<@!?(\d+)>/g)].map(([, id]) => id);
      const known = [bot, author];
      const message: ApiMessage = {
        id: snowflake(),
        channel_id: channel.id,
        ...(channel.kind === 'dm' ? {} : { guild_id: guildOf(channel) }),
        author,
        content,
        timestamp: new Date().toISOString(),
        edited_timestamp: null,
        tts: false,
        mention_everyone: false,
        mentions: known.filter((person) => mentioned.includes(person.id)),
        mention_roles: [],
        attachments: [],
        embeds: [],
        pinned: false,
        type: extra.replyTo ? 19 : 0,
        flags: 0,
        ...(extra.replyTo ? { message_reference: { message_id: extra.replyTo.id, channel_id: channel.id } } : {}),
      };
      messages.get(channel.id)?.push(message);
      // A message in an archived thread brings it back.
      if (channel.archived && !channel.locked) channel.archived = false;
      dispatch('MESSAGE_CREATE', {
        ...message,
        channel_type: CHANNEL_TYPE[channel.kind],
        ...(channel.kind === 'dm' ? {} : { member: { ...member(author), user: undefined } }),
        ...(extra.replyTo ? { referenced_message: extra.replyTo } : {}),
      });
      return message;
    },

    /** A `/chatbot` invocation, dispatched as INTERACTION_CREATE; answers its token. */
    command(
      channel: FakeChannel,
      invoker: ApiUser,
      subcommand: string,
      options: CommandOption[] = [],
      permissions: bigint = MEMBER_PERMISSIONS,
    ): string {
      return interact(channel, invoker, permissions, {
        type: 2,
        data: {
          id: snowflake(),
          name: 'chatbot',
          type: 1,
          ...(channel.kind !== 'dm' ? { guild_id: guildOf(channel) } : {}),
          options: [{ type: 1, name: subcommand, options: options.map((option) => ({ type: 3, ...option })) }],
        },
      });
    },

    /** A click on a button of the bot's message, dispatched as INTERACTION_CREATE type 3; answers its token. */
    click(message: ApiMessage, clicker: ApiUser, customId: string): string {
      const channel = channels.get(message.channel_id);
      if (!channel) throw new Error(`no channel ${message.channel_id}`);
      const button = message.components?.flatMap((row) => row.components).find((item) => item.custom_id === customId);
      if (!button) throw new Error(`message ${message.id} has no button ${customId}`);
      return interact(channel, clicker, MEMBER_PERMISSIONS, {
        type: 3,
        message,
        data: { custom_id: customId, component_type: 2 },
      });
    },

    /**
     * `clicker` submitting the modal that answered a click (`interactionToken`), with `values`
     * typed into its text inputs by custom id: a MODAL_SUBMIT interaction (type 5); answers its token.
     */
    submitModal(interactionToken: string, clicker: ApiUser, values: Record<string, string>, permissions = MEMBER_PERMISSIONS): string {
      const opened = interactionTokens.get(interactionToken);
      const callback = requests.find(
        (item) => item.method === 'POST' && item.path.includes(`/${interactionToken}/callback`) && item.status < 300,
      );
      const modal = (callback?.body as { type?: number; data?: ModalData } | undefined)?.data;
      if (!opened || (callback?.body as { type?: number }).type !== 9 || !modal) throw new Error('no modal was opened');
      const channel = channels.get(opened.channelId);
      if (!channel) throw new Error(`no channel ${opened.channelId}`);
      return interact(channel, clicker, permissions, {
        type: 5,
        data: {
          custom_id: modal.custom_id,
          components: modal.components.map((row) => ({
            type: 1,
            components: row.components.map((input) => ({ type: 4, id: input.id ?? 1, custom_id: input.custom_id, value: values[input.custom_id] ?? '' })),
          })),
        },
      });
    },

    /** The callback, the `@original` edits and the follow-up messages recorded for an interaction. */
    interactionResponse(interactionToken: string): InteractionResponse {
      return {
        followUps: requests.filter((item) => item.method === 'POST' && item.path.endsWith(`/${interactionToken}`) && item.status < 300),
        callback: requests.find(
          (item) => item.method === 'POST' && item.path.includes(`/${interactionToken}/callback`) && item.status < 300,
        ),
        edits: requests.filter(
          (item) => item.method === 'PATCH' && item.path.includes(`/${interactionToken}/messages/@original`) && item.status < 300,
        ),
      };
    },

    /** The next `method` request whose path matches answers 429 once. */
    rateLimitNext(method: string, path: RegExp, retryAfterSeconds: number, global = false): void {
      rateLimits.push({ method, path, retryAfter: retryAfterSeconds, global });
    },

    /** The next `method` request whose path matches fails once, as Discord fails it. */
    failNext(method: string, path: RegExp, status: number, body: { message: string; code: number }): void {
      failures.push({ method, path, status, body });
    },

    /** Drops the gateway connection from Discord's side (the client should resume). */
    dropConnection(code = 4000): void {
      for (const session of sessions) session.socket?.close(code, 'dropped by the fake');
    },

    /** Asks the client to reconnect and resume (op 7). */
    requestReconnect(): void {
      for (const session of sessions) if (session.socket) send(session.socket, { op: OP.RECONNECT, d: null });
    },

    /** Whether a client is connected and identified or resumed. */
    connected: () => sessions.some((session) => session.socket),

    async close(): Promise<void> {
      for (const client of wss.clients) client.terminate();
      wss.close();
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      await closed;
    },
  };
}
