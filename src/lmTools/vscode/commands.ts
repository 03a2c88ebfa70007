// The commands of the gateway tools and @gateway. None is declared in package.json (the tools and the participant
// are contributed as such), so the feature's table is empty; what they run is named here.
import { SHARED_COMMANDS } from '../../ui/core/commandIds';

export const LM_TOOLS_COMMANDS = {} as const;

/**
 * Shows one job in Video Jobs. A chat button's target only: registered without a package.json entry, so it is not
 * offered in the Command Palette, where it would have no job to show.
 */
export const REVEAL_JOB_COMMAND = 'modelGateway.tools.revealVideoJob';

/** The commands the participant's buttons run (the media, video and usage features' own, with their argument checks). */
export const BUTTON_COMMANDS = { showMedia: 'modelGateway.media.show', saveMedia: 'modelGateway.media.save', previewVideo: 'modelGateway.videos.preview', showUsage: SHARED_COMMANDS.showUsage } as const;
