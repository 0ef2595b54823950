import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { loggedConnection } from '../../src/certificate/logged-connection.ts';
import { WIRE_KEPT_BYTES, keptBytes, readWireRecord, wireBytes } from '../../src/text/wire-record.ts';

const redact = (text: string) => text.replaceAll('s3cr3t-key', '***');

describe('the log’s record of a raw exchange’s wire', () => {
  it('keeps UTF-8 as text and other bytes as base64 with their sha256, the key redacted in both', () => {
    expect(wireBytes(Buffer.from('GET / HTTP/1.1\r\nAuthorization: Bearer s3cr3t-key\r\n\r\n'), redact)).toEqual({
      text: 'GET / HTTP/1.1\r\nAuthorization: Bearer ***\r\n\r\n',
      size: 52,
      redacted: true,
    });
    expect(wireBytes(Buffer.from('HTTP/1.1 204 No Content\r\n\r\n'), redact)).toEqual({ text: 'HTTP/1.1 204 No Content\r\n\r\n', size: 27 });
    const odd = Buffer.concat([Buffer.from('HTTP/1.1 200 OK\r\nX: s3cr3t-key '), Buffer.from([0xff, 0xfe]), Buffer.from('\r\n\r\n')]);
    const record = wireBytes(odd, redact);
    expect(record).toMatchObject({ size: odd.length, redacted: true });
    const kept = keptBytes(record);
    expect('bytes' in kept && kept.bytes.toString('latin1')).toBe('HTTP/1.1 200 OK\r\nX: *** \u00ff\u00fe\r\n\r\n');
    if ('base64' in record) expect(record.sha256).toBe(createHash('sha256').update(Buffer.from(record.base64, 'base64')).digest('hex'));
  });

  it('cuts past WIRE_KEPT_BYTES with the whole size kept, and a cut or a hash that does not match decides nothing', () => {
    const long = wireBytes(Buffer.alloc(WIRE_KEPT_BYTES + 10, 0x61), redact);
    expect(long).toMatchObject({ size: WIRE_KEPT_BYTES + 10, cut: true });
    expect(keptBytes(long)).toEqual({ problem: `the log keeps ${WIRE_KEPT_BYTES} of its ${WIRE_KEPT_BYTES + 10} bytes` });
    expect(keptBytes({ base64: Buffer.from([0xff]).toString('base64'), sha256: '00', size: 1 })).toEqual({ problem: 'its bytes do not match their sha256' });
  });

  it('reads a record back only as this suite writes it', () => {
    const sent = { text: 'GET', size: 3 };
    const record = { place: 'lone', run: 1, connection: 1, sent, read: sent, ended: 'response' };
    expect(readWireRecord(JSON.parse(JSON.stringify(record)))).toEqual(record);
    expect(readWireRecord({ ...record, place: 'elsewhere' })).toBeUndefined();
    expect(readWireRecord({ ...record, ended: 'fine' })).toBeUndefined();
    expect(readWireRecord({ ...record, read: { size: 3 } })).toBeUndefined();
    expect(readWireRecord({ ...record, run: 1.5 })).toBeUndefined();
  });

  it("reads a response's _connection as the checks read it live, leaving out what is not as written", () => {
    const drop = { error: 'socket closed', idleMs: 12, drops: 3, answered: 5 };
    expect(loggedConnection({ droppedBefore: drop, strayBefore: { bytes: 'HTTP/1.1 200', count: 1 } })).toEqual({
      droppedBefore: drop,
      strayBefore: { bytes: 'HTTP/1.1 200', count: 1 },
    });
    expect(loggedConnection({ droppedBefore: { error: 'x', drops: 3, answered: 5 } })).toEqual({
      droppedBefore: { error: 'x', idleMs: undefined, drops: 3, answered: 5 },
    });
    expect(loggedConnection({ strayBefore: { bytes: 7, count: 1 } })).toBeUndefined();
    expect(loggedConnection('none')).toBeUndefined();
  });
});
