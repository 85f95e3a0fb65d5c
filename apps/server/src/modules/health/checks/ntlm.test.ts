import { describe, expect, it } from 'vitest';
import {
  authenticateMessage,
  md4,
  negotiateMessage,
  ntlmv2Responses,
  ntowfv2,
  parseAuthenticateMessage,
  parseChallengeHeader,
  splitNtlmUser,
  verifyNtlmv2Response,
} from './ntlm.js';

const hex = (text: string) => Buffer.from(text.replace(/\s+/g, ''), 'hex');

describe('MD4 (RFC 1320 appendix A.5 test suite)', () => {
  const suite: Array<[string, string]> = [
    ['', '31d6cfe0d16ae931b73c59d7e0c089c0'],
    ['a', 'bde52cb31de33e46245e05fbdbd6fb24'],
    ['abc', 'a448017aaf21d8525fc10ae87aa6729d'],
    ['message digest', 'd9130a8164549fe818874806e1c7014b'],
    ['abcdefghijklmnopqrstuvwxyz', 'd79e1c308aa5bbcdeea8ed63df412da9'],
    ['ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789', '043f8582f241db351ce627e153e7f0e4'],
    [
      '12345678901234567890123456789012345678901234567890123456789012345678901234567890',
      'e33b4ddc9c38f2199c3e7b164fcc0536',
    ],
  ];
  for (const [input, digest] of suite) {
    it(`MD4("${input.slice(0, 20)}")`, () => {
      expect(md4(Buffer.from(input, 'latin1')).toString('hex')).toBe(digest);
    });
  }
});

describe("NTLMv2 against MS-NLMP §4.2.4's known answers", () => {
  // §4.2.1: User "User", UserDom "Domain", Passwd "Password"; ServerChallenge 0123456789abcdef,
  // ClientChallenge aa*8, Time 0; §4.2.4: the CHALLENGE's AV pairs name NetBIOS domain "Domain"
  // and server "Server".
  const targetInfo = hex('02000c0044006f006d00610069006e00 01000c00530065007200760065007200 00000000');
  const responses = ntlmv2Responses({
    user: 'User',
    domain: 'Domain',
    password: 'Password',
    serverChallenge: hex('0123456789abcdef'),
    clientChallenge: hex('aaaaaaaaaaaaaaaa'),
    time: Buffer.alloc(8),
    targetInfo,
  });

  it('ResponseKeyNT (NTOWFv2) is §4.2.4.1.1', () => {
    expect(ntowfv2('Password', 'User', 'Domain').toString('hex')).toBe('0c868a403bfd7a93a3001ef22ef02e3f');
  });

  it('the LMv2 response is §4.2.4.2.1', () => {
    expect(responses.lmChallengeResponse.toString('hex')).toBe(
      '86c35097ac9cec102554764a57cccc19aaaaaaaaaaaaaaaa',
    );
  });

  it('NTProofStr and the session base key are §4.2.4.2.2 and §4.1.3.2', () => {
    expect(responses.ntProofStr.toString('hex')).toBe('68cd0ab851e51c96aabc927bebef6a1c');
    expect(responses.sessionBaseKey.toString('hex')).toBe('8de40ccadbc14a82f15cb0ad0de95ca3');
  });

  it('the NT response is the proof followed by the blob the server verifies', () => {
    expect(responses.ntChallengeResponse.subarray(16, 32).toString('hex')).toBe(
      '0101000000000000' + '0000000000000000',
    );
    expect(
      verifyNtlmv2Response(
        { user: 'User', domain: 'Domain', ntChallengeResponse: responses.ntChallengeResponse },
        'Password',
        hex('0123456789abcdef'),
      ),
    ).toBe(true);
    expect(
      verifyNtlmv2Response(
        { user: 'User', domain: 'Domain', ntChallengeResponse: responses.ntChallengeResponse },
        'password',
        hex('0123456789abcdef'),
      ),
    ).toBe(false);
  });
});

describe('NTLM messages', () => {
  it('a NEGOTIATE message is type 1 with the NTLMSSP signature', () => {
    const message = Buffer.from(negotiateMessage(), 'base64');
    expect(message.subarray(0, 8).toString('latin1')).toBe('NTLMSSP\0');
    expect(message.readUInt32LE(8)).toBe(1);
  });

  it('answers a CHALLENGE with an AUTHENTICATE the server can check', () => {
    const challenge = Buffer.alloc(56);
    Buffer.from('NTLMSSP\0', 'latin1').copy(challenge);
    challenge.writeUInt32LE(2, 8);
    challenge.writeUInt32LE(0x00880205, 20);
    hex('1122334455667788').copy(challenge, 24);
    const info = hex('0100040053005600 00000000');
    challenge.writeUInt16LE(info.length, 40);
    challenge.writeUInt16LE(info.length, 42);
    challenge.writeUInt32LE(48, 44);
    const whole = Buffer.concat([challenge.subarray(0, 48), info]);
    const parsed = parseChallengeHeader(`Negotiate, NTLM ${whole.toString('base64')}`);
    expect(parsed?.serverChallenge.toString('hex')).toBe('1122334455667788');
    expect(parsed?.targetInfo.equals(info)).toBe(true);
    const answer = parseAuthenticateMessage(
      authenticateMessage(parsed!, { username: 'CORP\\alice', password: 'pw', workstation: 'OPS' }),
    );
    expect(answer).toMatchObject({ user: 'alice', domain: 'CORP', workstation: 'OPS' });
    expect(verifyNtlmv2Response(answer, 'pw', hex('1122334455667788'))).toBe(true);
    expect(verifyNtlmv2Response(answer, 'pw', hex('1122334455667789'))).toBe(false);
  });

  it('refuses an NTLM header that is not a CHALLENGE, and ignores other schemes', () => {
    expect(parseChallengeHeader('Basic realm="x"')).toBeUndefined();
    expect(() => parseChallengeHeader(`NTLM ${negotiateMessage()}`)).toThrow(/not a CHALLENGE/);
  });

  it('splits DOMAIN\\user as the ecosystem does', () => {
    expect(splitNtlmUser('CORP\\bob')).toEqual({ user: 'bob', domain: 'CORP' });
    expect(splitNtlmUser('bob')).toEqual({ user: 'bob', domain: '' });
  });
});
