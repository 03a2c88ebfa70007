// The ids the gateway tools and the @gateway participant use, kept apart from the tools' specs and the participant
// so the feature definition (loaded at activation) can name them without bundling either. Pure.

/** The language model tools, as package.json's `languageModelTools` names them. */
export const TOOL_NAMES = {
  generateImage: 'gateway_generate_image',
  editImage: 'gateway_edit_image',
  submitVideo: 'gateway_submit_video',
  getVideoJob: 'gateway_get_video_job',
  synthesizeSpeech: 'gateway_synthesize_speech',
  transcribe: 'gateway_transcribe',
  listModels: 'gateway_list_models',
  usageSummary: 'gateway_usage_summary',
} as const;

/** package.json's `chatParticipants` id. */
export const PARTICIPANT_ID = 'modelGateway.gateway';
