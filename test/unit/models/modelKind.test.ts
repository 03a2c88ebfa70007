import * as assert from 'node:assert/strict';
import { classifyModel, explainKind } from '../../../src/models/core/modelKind';

describe('classifyModel', () => {
  const kind = (id: string, extra: Record<string, unknown> = {}) => classifyModel({ id, object: 'model', ...extra });

  it('places the spec\'s three models', () => {
    assert.equal(kind('model-k3'), 'chat');
    assert.equal(kind('model-5.2'), 'chat');
    assert.equal(kind('model-1.0-video-edit'), 'video');
  });

  it('calls anything with "video" in its id or owner a video model', () => {
    for (const id of ['wan-2.1-t2v-video', 'Video-Gen', 'kling-video-1.6', 'model-2.0-video-ref']) assert.equal(kind(id), 'video', id);
    assert.equal(kind('veo-3', { owned_by: 'acme-video' }), 'video');
  });

  it('recognises common chat families and chat words', () => {
    for (const id of ['gpt-4o', 'gpt-5.2', 'o3-mini', 'claude-3-5-sonnet', 'gemini-2.5-pro', 'llama-3.1-70b-instruct', 'qwen2.5-72b', 'deepseek-chat', 'kimi-k2', 'glm-4.5', 'mistral-large', 'acme-chat-v2', 'my-model-instruct', 'org/llama-3']) {
      assert.equal(kind(id), 'chat', id);
    }
  });

  it('places the simulator\'s image and speech models by their ids', () => {
    assert.equal(kind('model-image-1.0'), 'image');
    assert.equal(kind('model-speech-1.0'), 'speech');
  });

  it('knows image and speech models by their ids, even in a chat family', () => {
    for (const id of ['gpt-image-1', 'dall-e-3', 'qwen-image', 'imagen-4.0-generate', 'flux-1.1-pro', 'stable-diffusion-xl', 'sdxl-turbo-lightning', 'acme-img-2']) assert.equal(kind(id), 'image', id);
    for (const id of ['tts-1', 'tts-1-hd', 'gpt-4o-mini-tts', 'acme-speech-2', 'speech-02-hd']) assert.equal(kind(id), 'speech', id);
  });

  it('puts the other modalities under other, even in a chat family', () => {
    for (const id of ['text-embedding-3-small', 'whisper-1', 'omni-moderation-latest', 'bge-reranker', 'gemini-embedding-001', 'gpt-4o-transcribe', 'gpt-4o-audio-preview', 'image-embedding-1']) {
      assert.equal(kind(id), 'other', id);
    }
  });

  it('offers unknown ids as chat models (OpenAI-compatible gateways list fine-tunes and house models)', () => {
    for (const id of ['acme-x', 'foo', 'model-edit', 'imagine-7b', 'speechless-13b']) assert.equal(kind(id), 'chat', id);
  });

  it('trusts the gateway\'s own type or capability fields over the name', () => {
    assert.equal(kind('acme-x', { type: 'chat' }), 'chat');
    assert.equal(kind('acme-x', { modalities: ['text', 'video'] }), 'video');
    assert.equal(kind('gpt-4o', { type: 'embedding' }), 'other');
    assert.equal(kind('acme-x', { type: 'image' }), 'image');
    assert.equal(kind('acme-x', { mode: 'image_generation' }), 'image', 'LiteLLM model_info');
    assert.equal(kind('acme-x', { mode: 'audio_speech' }), 'speech');
    assert.equal(kind('acme-x', { mode: 'audio_transcription' }), 'other');
    assert.equal(kind('acme-x', { type: 'text-to-speech' }), 'speech', '"text-to-…" is not a chat hint');
    assert.equal(kind('acme-x', { output_modalities: ['image'] }), 'image');
    assert.equal(kind('acme-x', { supported_endpoints: ['/v1/images/generations'] }), 'image');
    assert.equal(kind('acme-x', { supported_endpoints: ['/v1/audio/speech'] }), 'speech');
    assert.equal(kind('model-image-1.0', { type: 'chat' }), 'chat', 'the gateway\'s field wins over the id');
    assert.equal(kind('tts-1', { type: 'video' }), 'video');
    assert.equal(kind('acme-vision', { modalities: ['text', 'image'] }), 'chat', 'a vision chat model stays chat');
    assert.equal(kind('acme-x', { capabilities: { chat: true, vision: false } }), 'chat');
    assert.equal(kind('acme-x', { capabilities: { chat: false } }), 'chat', 'a false capability is no hint: the name decides');
    assert.equal(kind('acme-x', { supported_endpoints: ['/v1/chat/completions'] }), 'chat');
  });
});

describe('explainKind: the field that decides, in the dialect card\'s order', () => {
  const verdict = (extra: Record<string, unknown>, id = 'acme-x', hints = {}) => explainKind({ id, object: 'model', ...extra }, hints);

  it('reads OpenRouter\'s architecture first: image, speech and video output, transcription input', () => {
    const arch = (input: string[], output: string[]) => ({ architecture: { modality: 'x', input_modalities: input, output_modalities: output } });
    assert.deepEqual([verdict(arch(['text', 'image'], ['image', 'text'])).kind, verdict(arch(['text'], ['image'])).source], ['image', 'architecture']);
    assert.equal(verdict(arch(['text'], ['audio'])).kind, 'speech');
    assert.equal(verdict(arch(['text', 'image'], ['video'])).kind, 'video');
    assert.equal(verdict(arch(['audio'], ['text'])).kind, 'other', 'transcription');
    assert.equal(verdict(arch(['text', 'image'], ['text'])).kind, 'chat', 'a vision chat model');
    assert.equal(verdict(arch(['text'], ['embeddings'])).kind, 'other');
    assert.match(verdict(arch(['text'], ['image'])).why, /`architecture\.output_modalities` is "image"/);
  });

  it('puts architecture before mode, mode before endpoints, endpoints before the id', () => {
    const both = { architecture: { output_modalities: ['image'] }, mode: 'chat', supported_endpoints: ['/v1/audio/speech'] };
    assert.equal(verdict(both, 'tts-1').kind, 'image');
    assert.equal(verdict({ mode: 'chat', supported_endpoints: ['/v1/audio/speech'] }, 'tts-1').source, 'mode');
    assert.equal(verdict({ supported_endpoints: ['/v1/audio/speech'] }, 'flux-pro').kind, 'speech');
    assert.equal(verdict({ supported_endpoints: ['/v1/audio/speech'] }, 'flux-pro').source, 'endpoints');
  });

  it('reads LiteLLM\'s mode on the entry or in model_info (as /model/info gives it)', () => {
    const v = verdict({ model_info: { mode: 'video_generation' } }, 'house-1');
    assert.deepEqual([v.kind, v.source], ['video', 'mode']);
    assert.match(v.why, /`model_info\.mode` is "video_generation"/);
    assert.equal(verdict({ model_info: { mode: 'audio_speech' } }).kind, 'speech');
    assert.equal(verdict({ model_info: { mode: 'responses' } }, 'dall-e-3').kind, 'chat');
    assert.equal(verdict({ model_info: { mode: 'something-new' } }, 'dall-e-3').kind, 'image', 'an unknown mode decides nothing');
  });

  it('reads endpoints given as objects with a path', () => {
    assert.equal(verdict({ endpoints: [{ path: '/v1/videos', method: 'POST' }] }).kind, 'video');
  });

  it('takes a model found in /videos/models as video, before other fields and the id', () => {
    const v = verdict({ type: 'chat' }, 'acme-x', { listedIn: 'videoModels' });
    assert.deepEqual([v.kind, v.source], ['video', 'list']);
    assert.match(v.why, /\/videos\/models/);
  });

  it('says when the id alone decided, and when nothing did', () => {
    assert.deepEqual([verdict({}, 'dall-e-3').source, verdict({}, 'dall-e-3').kind], ['id', 'image']);
    assert.match(verdict({}, 'dall-e-3').why, /No field of the model list names its kind/);
    assert.equal(verdict({}, 'house-model').source, 'default');
  });
});
