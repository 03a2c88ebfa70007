// Reasoning in VS Code's own chat, as plain data: the effort menu a model declares in the model picker (the host's
// per-model configuration schema), and the effort a request asks for. A caller of `sendRequest` may pass
// `modelOptions.reasoning_effort` (or `reasoningEffort`); VS Code's chat passes what the user chose in the picker as
// `modelConfiguration.reasoningEffort`. The caller's explicit option wins; with neither, nothing is sent.
import { cleanEffortLevel } from '../../chatProtocol/effortLevel';
import { effortLevelsOf } from './reasoningLevels';

/** The key of the effort in the configuration schema (the name VS Code's own providers use). */
export const EFFORT_KEY = 'reasoningEffort';
/** The picker's first entry: send nothing, the model's own default. */
export const DEFAULT_CHOICE = 'default';
export const DEFAULT_CHOICE_LABEL = 'Default (send nothing)';

/** The part of VS Code's LanguageModelChatInformation.configurationSchema this extension fills. */
export interface EffortSchema {
  readonly properties: {
    readonly [EFFORT_KEY]: {
      readonly type: 'string';
      readonly title: string;
      readonly enum: readonly string[];
      readonly enumItemLabels: readonly string[];
      readonly default: string;
    };
  };
}

/**
 * The effort menu for a model, or undefined when it offers no levels. Hosts that know no configuration schema
 * ignore the member; hosts that do show it in the model picker.
 */
export function effortSchemaFor(raw: Readonly<Record<string, unknown>>, settingLevels: readonly string[]): EffortSchema | undefined {
  const { levels } = effortLevelsOf(raw, settingLevels);
  if (levels.length === 0) return undefined;
  return {
    properties: {
      [EFFORT_KEY]: {
        type: 'string',
        title: 'Thinking Effort',
        enum: [DEFAULT_CHOICE, ...levels],
        enumItemLabels: [DEFAULT_CHOICE_LABEL, ...levels.map((l) => l.charAt(0).toUpperCase() + l.slice(1))],
        // No `group`: the menu stays inside the model picker's entry for the model (VS Code 1.139 puts a
        // 'navigation' one in the chat input's toolbar too, which crowds the model picker out of a narrow chat).
        default: DEFAULT_CHOICE,
      },
    },
  };
}

/** The effort a request asks for: the caller's `modelOptions` first, then the picker's choice; undefined for none. */
export function requestedEffort(modelOptions: Readonly<Record<string, unknown>> | undefined, modelConfiguration: Readonly<Record<string, unknown>> | undefined): string | undefined {
  for (const value of [modelOptions?.reasoning_effort, modelOptions?.reasoningEffort, modelConfiguration?.[EFFORT_KEY]]) {
    if (value === undefined || value === null) continue;
    const level = cleanEffortLevel(value);
    return level === undefined || level === DEFAULT_CHOICE ? undefined : level;
  }
  return undefined;
}
