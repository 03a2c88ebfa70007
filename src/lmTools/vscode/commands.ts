// The commands of the gateway tools and @gateway. None is declared in package.json (the tools and the participant
// are contributed as such), so the feature's table is empty; what they run is named here.
import { MEDIA_SHARED_COMMANDS } from '../../media/core/api';
import { SHARED_COMMANDS } from '../../ui/core/commandIds';
import { VIDEO_SHARED_COMMANDS } from '../../videos/core/api';

export const LM_TOOLS_COMMANDS = {} as const;

/**
 * Shows one job in Video Jobs. A chat button's target only: registered without a package.json entry, so it is not
 * offered in the Command Palette, where it would have no job to show.
 */
export const REVEAL_JOB_COMMAND = 'modelGateway.tools.revealVideoJob';

/** The commands the participant's buttons run (the media, video and usage features' own, with their argument checks). */
export const BUTTON_COMMANDS = { showMedia: MEDIA_SHARED_COMMANDS.show, saveMedia: MEDIA_SHARED_COMMANDS.save, previewVideo: VIDEO_SHARED_COMMANDS.preview, showUsage: SHARED_COMMANDS.showUsage } as const;
