import type { Channel } from './channel.js';
import { discordChannel } from './discord.js';
import { emailChannel } from './email.js';
import { googleChatChannel } from './google-chat.js';
import { iftttChannel } from './ifttt.js';
import { matrixChannel } from './matrix.js';
import { mattermostChannel } from './mattermost.js';
import { ntfyChannel } from './ntfy.js';
import { opsgenieChannel } from './opsgenie.js';
import { pushbulletChannel } from './pushbullet.js';
import { pushoverChannel } from './pushover.js';
import { rocketchatChannel } from './rocketchat.js';
import { slackChannel } from './slack.js';
import { teamsChannel } from './teams.js';
import { telegramChannel } from './telegram.js';
import { webhookChannel } from './webhook.js';
import { zulipChannel } from './zulip.js';

export * from './channel.js';

export const CHANNELS: readonly Channel[] = [
  slackChannel,
  discordChannel,
  teamsChannel,
  mattermostChannel,
  googleChatChannel,
  telegramChannel,
  ntfyChannel,
  pushoverChannel,
  pushbulletChannel,
  opsgenieChannel,
  rocketchatChannel,
  zulipChannel,
  matrixChannel,
  iftttChannel,
  webhookChannel,
  emailChannel,
];

/** The channel for a service URL's scheme, or undefined. */
export function channelFor(target: URL): Channel | undefined {
  const scheme = target.protocol.slice(0, -1).toLowerCase();
  return CHANNELS.find((channel) => channel.schemes.includes(scheme));
}
