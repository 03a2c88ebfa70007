// Diagnose Models, as plain data: for each of the gateway's models, its kind and why, whether VS Code's model
// picker has it and why not, its context window and prices when the list gives them, and what the extension sends
// it. Users of every provider extension report models missing from the picker with no explanation; this says it.
import type { CatalogModel, CatalogSnapshot } from './modelCatalog';
import { explainKind, type ModelKind } from './modelKind';
import { acceptsImages, contextWindowOf, DEFAULT_MAX_INPUT_TOKENS, toChatInformation } from './lmMapping';
import { effortLevelsOf } from './reasoningLevels';
import { GROUP_TITLES } from './modelList';
import { retirementOf, retirementText } from './retirement';
import { describeEffortFields, effortFields } from '../../gateway/reasoningEffort';
import type { ReasoningSettings } from '../../settings/settings';
import { markdownCode } from '../../util/html';

export interface DiagnosisContext {
  /** Ids VS Code's chat offers from this extension now; undefined when VS Code could not be asked. */
  readonly inPicker: ReadonlySet<string> | undefined;
  readonly reasoning: ReasoningSettings;
  /** The chat panel's context window for models the list gives none (`modelGateway.chat.contextWindow`). */
  readonly panelContextWindow: number;
  /** Endpoint paths below the base URL. */
  readonly paths: { readonly images: string; readonly speech: string };
  /** The default chat, image and speech models (settings), to say which one a model is. */
  readonly defaults: Partial<Record<'chat' | 'image' | 'speech', string>>;
  /** The clock's time, to say which models retire within 30 days. */
  readonly now?: number;
}

export interface ModelDiagnosis {
  readonly id: string;
  readonly kind: ModelKind;
  readonly kindWhy: string;
  /** True: in the picker; false: not; undefined: could not be checked. */
  readonly inPicker: boolean | undefined;
  readonly pickerWhy: string;
  readonly contextWindow: string;
  readonly prices: string;
  readonly sends: readonly string[];
  /** When the model retires, when that is within 30 days, and which field said so. */
  readonly retiring?: string;
}

export function diagnoseModels(snapshot: CatalogSnapshot, context: DiagnosisContext): ModelDiagnosis[] {
  return snapshot.models.map((model) => diagnoseModel(model, context, snapshot.remembered === true));
}

export function diagnoseModel(model: CatalogModel, context: DiagnosisContext, remembered = false): ModelDiagnosis {
  const { kind, why } = remembered ? { kind: model.kind, why: 'Remembered from the last model list (the gateway was not asked in this session).' } : explainKind(model.raw, { listedIn: model.listedIn });
  const picker = pickerState(model, kind, context.inPicker);
  const retirement = context.now === undefined ? undefined : retirementOf(model.raw, context.now);
  const retiring = retirement && `${retirementText(retirement)}, as its \`${retirement.field}\` says.`;
  return { id: model.id, kind, kindWhy: why, inPicker: picker.shown, pickerWhy: picker.why, contextWindow: contextText(model, kind, context), prices: pricesOf(model.raw), sends: sendsTo(model, kind, context), ...(retiring && { retiring }) };
}

function pickerState(model: CatalogModel, kind: ModelKind, inPicker: ReadonlySet<string> | undefined): { shown: boolean | undefined; why: string } {
  if (kind !== 'chat') return { shown: false, why: `Not offered: VS Code's model picker takes chat models, and this is a ${kind} model.` };
  if (inPicker === undefined) return { shown: undefined, why: 'Offered to VS Code\'s chat; whether the picker shows it could not be checked (this VS Code has no language model API).' };
  if (inPicker.has(model.id)) return { shown: true, why: 'In the picker, under Model Gateway.' };
  return {
    shown: false,
    why: 'Offered to VS Code, which does not list it yet: the picker may not have asked again since the list changed (reopen it), or the model is hidden in the picker\'s "Manage Models".',
  };
}

function contextText(model: CatalogModel, kind: ModelKind, context: DiagnosisContext): string {
  if (kind !== 'chat') return 'Not used for this kind.';
  const listed = contextWindowOf(model.raw);
  const output = toChatInformation(model).maxOutputTokens;
  if (listed !== undefined) return `${fmt(listed)} tokens (from the model list); replies up to ${fmt(output)} tokens.`;
  return `Not given by the model list: VS Code's chat assumes ${fmt(DEFAULT_MAX_INPUT_TOKENS)} tokens, the chat panel ${fmt(context.panelContextWindow)} (\`modelGateway.chat.contextWindow\`).`;
}

/**
 * Prices as the list gives them: OpenRouter's `pricing` (USD per token, as strings), LiteLLM's
 * `input_cost_per_token` / `output_cost_per_token`. Shown per million tokens.
 */
export function pricesOf(raw: Readonly<Record<string, unknown>>): string {
  const pricing = raw.pricing !== null && typeof raw.pricing === 'object' ? (raw.pricing as Record<string, unknown>) : {};
  const input = perToken(pricing.prompt ?? pricing.input ?? raw.input_cost_per_token);
  const output = perToken(pricing.completion ?? pricing.output ?? raw.output_cost_per_token);
  const parts: string[] = [];
  if (input !== undefined) parts.push(`${usd(input * 1e6)} per million input tokens`);
  if (output !== undefined) parts.push(`${usd(output * 1e6)} per million output tokens`);
  return parts.length > 0 ? `${parts.join(', ')} (from the model list).` : 'Not given by the model list.';
}

function perToken(value: unknown): number | undefined {
  const n = typeof value === 'number' ? value : typeof value === 'string' && value.trim() !== '' ? Number(value) : NaN;
  return Number.isFinite(n) && n >= 0 ? n : undefined;
}

function usd(amount: number): string {
  return `$${amount.toLocaleString('en-US', { maximumFractionDigits: amount < 1 ? 4 : 2 })}`;
}

function sendsTo(model: CatalogModel, kind: ModelKind, context: DiagnosisContext): string[] {
  const isDefault = kind !== 'video' && kind !== 'other' && context.defaults[kind] === model.id;
  const lines: string[] = isDefault ? [`The default ${kind} model (settings).`] : [];
  if (kind === 'chat') {
    lines.push('POST /v1/chat/completions, streamed (`stream: true`, `stream_options.include_usage`), from the chat panel and VS Code\'s chat.');
    lines.push(acceptsImages(model.raw) ? 'Images attached to a message go as `image_url` parts.' : 'No images: the model list does not say it reads them.');
    const effort = effortLevelsOf(model.raw, context.reasoning.levels);
    if (effort.levels.length === 0) lines.push(`Reasoning effort: none offered. ${effort.why}`);
    else lines.push(`Reasoning effort: Default sends nothing; ${effort.levels.join(', ')} as ${describeEffortFields(effortFields(effort.levels[0], context.reasoning.format))} and so on (\`modelGateway.reasoningEffortFormat\`: ${context.reasoning.format}). ${effort.why}`);
  } else if (kind === 'image') lines.push(`POST ${context.paths.images} (Generate Image, /image in the chat).`);
  else if (kind === 'speech') lines.push(`POST ${context.paths.speech} (Read Aloud, /speak in the chat).`);
  else if (kind === 'video') lines.push('POST /v1/videos/generations, then GET /v1/videos/{id} until it is done (Generate Video, /video in the chat).');
  else lines.push('Nothing: the extension has no use for this kind of model.');
  return lines;
}

function fmt(n: number): string {
  return n.toLocaleString('en-US');
}

/** The report as Markdown: a summary line, then one section per model, chat models first. */
export function diagnosisMarkdown(origin: string, diagnoses: readonly ModelDiagnosis[], remembered = false): string {
  const inPicker = diagnoses.filter((d) => d.inPicker === true).length;
  const chat = diagnoses.filter((d) => d.kind === 'chat').length;
  const lines = [`# Model Gateway: models on ${origin}`, '', `${diagnoses.length} models; ${chat} chat models, ${inPicker} of them in VS Code's model picker.${remembered ? ' The list is the one remembered from the last session.' : ''}`, ''];
  const order: ModelKind[] = ['chat', 'video', 'image', 'speech', 'other'];
  for (const kind of order) {
    const group = diagnoses.filter((d) => d.kind === kind);
    if (group.length === 0) continue;
    lines.push(`## ${GROUP_TITLES[kind]}`, '');
    for (const d of group) {
      // An id is the gateway's text: as a code span it stays text.
      lines.push(`### ${markdownCode(d.id)}`, '');
      if (d.retiring) lines.push(`- **Retiring:** ${d.retiring[0].toUpperCase()}${d.retiring.slice(1)} Pick another model before then.`);
      lines.push(`- **Kind:** ${d.kind}. ${d.kindWhy}`);
      lines.push(`- **VS Code's model picker:** ${d.inPicker === true ? 'yes' : d.inPicker === false ? 'no' : 'unknown'}. ${d.pickerWhy}`);
      lines.push(`- **Context window:** ${d.contextWindow}`);
      lines.push(`- **Prices:** ${d.prices}`);
      lines.push(`- **What the extension sends:** ${d.sends.join(' ')}`, '');
    }
  }
  return lines.join('\n');
}
