// Which reasoning effort levels a model offers, read from the gateway's model list. GET /v1/models has no standard
// for it (the spec shows no response shape), so, first match wins:
// 1. a list of levels: `reasoning_effort_levels`, `supported_reasoning_efforts`, `reasoning_efforts`, or
//    `reasoning.effort_levels` / `reasoning.levels` (an object some gateways nest it in);
// 2. `supported_parameters` (OpenRouter, vLLM) naming `reasoning_effort` or `reasoning`: it takes an effort, the
//    levels are the setting's;
// 3. `supported_parameters` without either: the gateway says what the model takes, and effort is not among it;
// 4. nothing said: the setting's levels (`modelGateway.reasoningEffortLevels`), since most gateways say nothing.
// "Default (send nothing)" is always offered besides; it is not a level.
import { cleanEffortLevel } from '../../chatProtocol/effortLevel';

export type EffortSource = 'gateway-levels' | 'gateway-parameter' | 'gateway-excludes' | 'setting';

export interface EffortLevels {
  readonly levels: readonly string[];
  readonly source: EffortSource;
  /** One sentence: where the levels come from. */
  readonly why: string;
}

const LEVEL_FIELDS = ['reasoning_effort_levels', 'supported_reasoning_efforts', 'reasoning_efforts'] as const;
const MAX_LEVELS = 16;

export function effortLevelsOf(raw: Readonly<Record<string, unknown>>, settingLevels: readonly string[]): EffortLevels {
  const nested = raw.reasoning !== null && typeof raw.reasoning === 'object' ? (raw.reasoning as Record<string, unknown>) : undefined;
  const listed: Array<[string, unknown]> = [...LEVEL_FIELDS.map((f): [string, unknown] => [f, raw[f]]), ['reasoning.effort_levels', nested?.effort_levels], ['reasoning.levels', nested?.levels]];
  for (const [field, value] of listed) {
    const levels = levelsFrom(value);
    if (levels.length > 0) return { levels, source: 'gateway-levels', why: `The model list gives its levels (\`${field}\`).` };
  }
  const parameters = raw.supported_parameters;
  if (Array.isArray(parameters)) {
    const named = parameters.find((p) => p === 'reasoning_effort' || p === 'reasoning');
    if (named) return { levels: settingLevels, source: 'gateway-parameter', why: `The model list says it takes \`${named}\` (\`supported_parameters\`), without levels: the setting's are offered.` };
    return { levels: [], source: 'gateway-excludes', why: 'The model list names the parameters it takes (`supported_parameters`), and a reasoning effort is not one of them.' };
  }
  return { levels: settingLevels, source: 'setting', why: 'The model list says nothing about reasoning: the levels of `modelGateway.reasoningEffortLevels` are offered.' };
}

function levelsFrom(value: unknown): string[] {
  if (!Array.isArray(value)) return [];
  const out: string[] = [];
  for (const item of value) {
    const level = cleanEffortLevel(item);
    if (level !== undefined && !out.includes(level) && out.length < MAX_LEVELS) out.push(level);
  }
  return out;
}
