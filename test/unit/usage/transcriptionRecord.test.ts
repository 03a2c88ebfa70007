// Transcription in the ledger: a modality of its own, with its seconds of audio, the gateway's tokens or cost, and
// the outcome; the line format keeps the seconds.
import * as assert from 'node:assert/strict';
import { callReport } from '../../../src/gateway/callFigures';
import type { Transcription, TranscriptionRequest } from '../../../src/gateway/types';
import { decodeRecord, encodeRecord } from '../../../src/usage/core/ledgerLine';
import { recordOf } from '../../../src/usage/core/record';
import { summarize } from '../../../src/usage/core/summary';

const context = { time: 1_700_000_000_000, profile: { id: 'default', name: 'Default' }, workspace: 'ws', costHeader: 'x-litellm-response-cost', price: undefined };
const request: TranscriptionRequest = { model: 'whisper-1', audio: new Uint8Array(4), fileName: 'a.wav', format: 'srt', dialect: 'openai', seconds: 12.5 };

function finished(ok: boolean, value: unknown) {
  return callReport({ origin: 'http://gw', profile: 'default', method: 'transcribeAudio', args: [request, { surface: 'transcription' }], ok, value, header: () => undefined });
}

describe('usage: transcription', () => {
  it('records the seconds of audio, the reported cost and the tokens of a finished transcription', () => {
    const answer: Transcription = { text: 'hello', timed: true, streamed: false, usage: { seconds: 11, inputTokens: 30, outputTokens: 5, cost: 0.002 } };
    const record = recordOf(finished(true, answer), context)!;
    assert.deepEqual([record.modality, record.surface, record.audioSeconds, record.inputTokens, record.outputTokens, record.cost, record.costSource, record.outcome], ['transcription', 'transcription', 11, 30, 5, 0.002, 'reported', 'ok']);
  });

  it("falls back to the file's own length, and records a failure with its outcome and unknown cost", () => {
    const plain = recordOf(finished(true, { text: 'x', timed: false, streamed: false }), context)!;
    assert.equal(plain.audioSeconds, 12.5);
    const failed = recordOf(finished(false, new Error('boom')), context)!;
    assert.deepEqual([failed.outcome, failed.costSource, failed.audioSeconds], ['error', 'unknown', 12.5]);
  });

  it('keeps the modality and the seconds through a ledger line, and totals them', () => {
    const record = recordOf(finished(true, { text: 'x', timed: false, streamed: false, usage: { seconds: 3 } }), context)!;
    const line = encodeRecord(record);
    assert.equal(JSON.parse(line).k, 't');
    const back = decodeRecord(line)!;
    assert.deepEqual([back.modality, back.audioSeconds], ['transcription', 3]);
    const summary = summarize([back, { ...back, audioSeconds: 4 }], { now: context.time, period: 'all', groupBy: 'modality', stackBy: 'modality' } as never);
    assert.equal(summary.totals.audioSeconds, 7);
  });
});
