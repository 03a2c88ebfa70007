// The ids the @gateway participant uses, kept apart from its adapter so the feature definition (loaded at
// activation) can name them without bundling the participant. Pure.

/** package.json's `chatParticipants` id. */
export const PARTICIPANT_ID = 'modelGateway.gateway';

/** The commands the participant's buttons run (the media and video features' own, with their argument checks). */
export const BUTTON_COMMANDS = { showMedia: 'modelGateway.media.show', saveMedia: 'modelGateway.media.save', previewVideo: 'modelGateway.videos.preview' } as const;

/**
 * Shows one job in Video Jobs. A chat button's target only: registered without a package.json entry, so it is not
 * offered in the Command Palette, where it would have no job to show.
 */
export const REVEAL_JOB_COMMAND = 'modelGateway.tools.revealVideoJob';
