import { randomUUID } from 'node:crypto';
import { DeliveryError, decoded, json, joined, originOf, param, type Channel } from './channel.js';

/**
 * Matrix client-server API: `matrix://USER:PASSWORD@HOST[:PORT]/?rooms=!room:server,#alias:server`
 * logs in (POST /_matrix/client/v3/login, m.login.password) or, with no user, uses the password as
 * an access token; then sends an m.text event to each room (PUT
 * /_matrix/client/v3/rooms/{roomId}/send/m.room.message/{txnId}); aliases are resolved first
 * (GET /_matrix/client/v3/directory/room/{alias}). https://spec.matrix.org/v1.11/client-server-api/
 */
export const matrixChannel: Channel = {
  name: 'matrix',
  schemes: ['matrix'],
  async send(target, message, context) {
    const origin = originOf(target);
    const user = decoded(target.username);
    const password = decoded(target.password);
    const rooms = (param(target, 'rooms') ?? param(target, 'room') ?? '')
      .split(',')
      .map((room) => room.trim())
      .filter(Boolean);
    if (!password || rooms.length === 0)
      throw new DeliveryError('matrix: the service URL needs a password or token and rooms');
    let token = password;
    if (user) {
      const login = await context.http(
        json(`${origin}/_matrix/client/v3/login`, {
          type: 'm.login.password',
          identifier: { type: 'm.id.user', user },
          password,
        }),
      );
      const answer = JSON.parse(login.text) as { access_token?: string };
      if (!answer.access_token) throw new DeliveryError('matrix: the login answer has no access token');
      token = answer.access_token;
    }
    const auth = { Authorization: `Bearer ${token}` };
    for (const room of rooms) {
      let roomId = room;
      if (room.startsWith('#')) {
        const found = await context.http({
          url: `${origin}/_matrix/client/v3/directory/room/${encodeURIComponent(room)}`,
          method: 'GET',
          headers: auth,
        });
        roomId = (JSON.parse(found.text) as { room_id?: string }).room_id ?? '';
        if (!roomId) throw new DeliveryError(`matrix: room ${room} was not found`);
      }
      await context.http({
        ...json(
          `${origin}/_matrix/client/v3/rooms/${encodeURIComponent(roomId)}/send/m.room.message/${randomUUID()}`,
          {
            msgtype: 'm.text',
            body: joined(message),
          },
          auth,
        ),
        method: 'PUT',
      });
    }
  },
};
