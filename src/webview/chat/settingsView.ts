// Per-session request controls: model, system prompt, temperature or top_p (radio buttons, so never both),
// max_tokens, stop sequences and JSON mode. Every change is checked here and sent as a whole settings object.
import { LIMITS, type ChatSettings, type Sampling } from '../../chatProtocol/session';
import type { ModelsState } from '../../chatProtocol/messages';
import { el, iconButton } from './dom';
import { markedModel, MediaModelsView } from './mediaModelsView';
import { EffortView } from './effortView';

type SamplingMode = Sampling['mode'];

const RANGES: Record<Exclude<SamplingMode, 'default'>, { min: number; max: number; step: string; fallback: number; label: string }> = {
  temperature: { min: 0, max: 2, step: '0.1', fallback: 1, label: 'Temperature (0 to 2)' },
  top_p: { min: 0, max: 1, step: '0.05', fallback: 1, label: 'Top P (0 to 1)' },
};

let nextId = 0;
const uid = (name: string) => `${name}-${++nextId}`;

function labelled(label: string, control: HTMLElement, hint?: string): HTMLElement {
  control.id ||= uid('field');
  const hintEl = hint ? el('div', { class: 'hint', text: hint, attrs: { id: uid('hint') } }) : undefined;
  if (hintEl) control.setAttribute('aria-describedby', hintEl.id);
  return el('div', { class: 'field' }, el('label', { text: label, attrs: { for: control.id } }), control, hintEl);
}

export class SettingsView {
  readonly modelPicker: HTMLElement;
  readonly panel: HTMLElement;
  private readonly modelSelect = el('select', { class: 'model-select', attrs: { 'aria-label': 'Model' } });
  private readonly modelsProblem = el('span', { class: 'models-problem', hidden: true, attrs: { role: 'status' } });
  private readonly systemPrompt = el('textarea', { attrs: { rows: '3', placeholder: 'Optional instructions sent first in every request' } });
  private readonly modeRadios: Record<SamplingMode, HTMLInputElement>;
  private readonly samplingValue = el('input', { attrs: { type: 'number', inputmode: 'decimal' } });
  private readonly maxTokens = el('input', { attrs: { type: 'number', min: '1', step: '1', inputmode: 'numeric', placeholder: 'Model default' } });
  private readonly stop = el('textarea', { attrs: { rows: '2', placeholder: 'One per line' } });
  private readonly jsonMode = el('input', { attrs: { type: 'checkbox' } });
  private readonly problem = el('div', { class: 'settings-problem', hidden: true, attrs: { role: 'alert' } });
  private readonly mediaModels = new MediaModelsView(() => this.emit());
  private readonly effort = new EffortView(() => this.emit());
  private settings: ChatSettings | undefined;
  private models: ModelsState = { models: [], loading: false };

  constructor(
    private readonly onChange: (settings: ChatSettings) => void,
    onRefreshModels: () => void,
  ) {
    this.modelSelect.addEventListener('change', () => {
      this.effort.setLevels(this.models.efforts?.[this.modelSelect.value] ?? []);
      this.emit();
    });
    this.modelPicker = el('div', { class: 'model-picker' }, this.modelSelect, this.effort.root, iconButton('refresh', 'Reload the model list', onRefreshModels), this.modelsProblem);

    const name = uid('sampling');
    const radio = (mode: SamplingMode) => el('input', { attrs: { type: 'radio', name, value: mode } });
    this.modeRadios = { default: radio('default'), temperature: radio('temperature'), top_p: radio('top_p') };
    const option = (mode: SamplingMode, text: string) => el('label', { class: 'radio' }, this.modeRadios[mode], el('span', { text }));
    const samplingHint = el('div', { class: 'hint', text: 'The gateway takes temperature or top_p, not both.' });
    const sampling = el(
      'fieldset',
      { class: 'sampling' },
      el('legend', { text: 'Sampling' }),
      el('div', { class: 'radios' }, option('default', 'Model default'), option('temperature', 'Temperature'), option('top_p', 'Top P'), this.samplingValue),
      samplingHint,
    );
    for (const mode of Object.keys(this.modeRadios) as SamplingMode[]) {
      this.modeRadios[mode].addEventListener('change', () => {
        this.setSamplingInput(mode, mode === 'default' ? undefined : RANGES[mode].fallback);
        this.emit();
      });
    }
    this.samplingValue.addEventListener('change', () => this.emit());
    for (const control of [this.systemPrompt, this.maxTokens, this.stop, this.jsonMode]) control.addEventListener('change', () => this.emit());

    this.panel = el(
      'section',
      { class: 'settings-panel', hidden: true, attrs: { id: 'session-settings', 'aria-label': 'Chat settings' } },
      labelled('System prompt', this.systemPrompt),
      sampling,
      el(
        'div',
        { class: 'settings-row' },
        labelled('Max tokens', this.maxTokens),
        labelled('Stop sequences', this.stop, 'Generation stops before any of these.'),
      ),
      el('label', { class: 'checkbox' }, this.jsonMode, el('span', { text: 'JSON mode (response_format json_object)' })),
      this.mediaModels.root,
      this.problem,
    );
  }

  get current(): ChatSettings | undefined {
    return this.settings;
  }

  set(settings: ChatSettings): void {
    this.settings = settings;
    this.systemPrompt.value = settings.systemPrompt;
    this.modeRadios[settings.sampling.mode].checked = true;
    this.setSamplingInput(settings.sampling.mode, settings.sampling.mode === 'default' ? undefined : settings.sampling.value);
    this.maxTokens.value = settings.maxTokens === null ? '' : String(settings.maxTokens);
    this.stop.value = settings.stop.join('\n');
    this.jsonMode.checked = settings.jsonMode;
    this.mediaModels.set(settings.mediaModels ?? { image: '', video: '', speech: '' });
    this.effort.set(settings.reasoningEffort);
    this.showProblem(undefined);
    this.renderModels();
  }

  setModels(models: ModelsState): void {
    this.models = models;
    this.renderModels();
  }

  private renderModels(): void {
    const current = this.settings?.model ?? '';
    const ids = [...this.models.models];
    if (current && !ids.includes(current)) ids.unshift(current);
    const options = ids.map((id) => el('option', { text: markedModel(id, this.models.retiring), attrs: { value: id } }));
    if (!current) options.unshift(el('option', { text: this.models.loading ? 'Loading models…' : 'Choose a model', attrs: { value: '' } }));
    this.modelSelect.replaceChildren(...options);
    this.modelSelect.value = current;
    this.modelSelect.setAttribute('aria-busy', String(this.models.loading));
    this.modelsProblem.hidden = !this.models.error;
    this.modelsProblem.textContent = this.models.error ?? '';
    this.mediaModels.setLists(this.models.media, this.models.retiring);
    this.effort.setLevels(this.models.efforts?.[current] ?? []);
  }

  private setSamplingInput(mode: SamplingMode, value: number | undefined): void {
    if (mode === 'default') {
      this.samplingValue.value = '';
      this.samplingValue.disabled = true;
      this.samplingValue.setAttribute('aria-label', 'Sampling value (not used)');
      return;
    }
    const range = RANGES[mode];
    this.samplingValue.disabled = false;
    this.samplingValue.min = String(range.min);
    this.samplingValue.max = String(range.max);
    this.samplingValue.step = range.step;
    this.samplingValue.value = String(value ?? range.fallback);
    this.samplingValue.setAttribute('aria-label', range.label);
  }

  /** The settings in the form, or what is wrong with them. */
  private collect(): ChatSettings | string {
    const mode = (Object.keys(this.modeRadios) as SamplingMode[]).find((m) => this.modeRadios[m].checked) ?? 'default';
    let sampling: Sampling = { mode: 'default' };
    if (mode !== 'default') {
      const range = RANGES[mode];
      const value = Number(this.samplingValue.value);
      if (this.samplingValue.value.trim() === '' || !Number.isFinite(value) || value < range.min || value > range.max) return `${range.label}: enter a number from ${range.min} to ${range.max}.`;
      sampling = { mode, value };
    }
    let maxTokens: number | null = null;
    if (this.maxTokens.value.trim() !== '') {
      const value = Number(this.maxTokens.value);
      if (!Number.isSafeInteger(value) || value < 1) return 'Max tokens: enter a whole number of at least 1, or leave it empty.';
      maxTokens = value;
    }
    const stop = this.stop.value.split('\n').map((s) => s.replace(/\r$/, '')).filter((s) => s !== '');
    if (stop.length > LIMITS.stopSequences) return `Stop sequences: at most ${LIMITS.stopSequences}.`;
    if (stop.some((s) => s.length > LIMITS.stopLength)) return `Stop sequences: each at most ${LIMITS.stopLength} characters.`;
    const settings: ChatSettings = { model: this.modelSelect.value, systemPrompt: this.systemPrompt.value, sampling, maxTokens, stop, jsonMode: this.jsonMode.checked, mediaModels: this.mediaModels.value() };
    const effort = this.effort.value();
    if (effort !== undefined) settings.reasoningEffort = effort;
    return settings;
  }

  private emit(): void {
    const result = this.collect();
    if (typeof result === 'string') {
      this.showProblem(result);
      return;
    }
    this.showProblem(undefined);
    this.settings = result;
    this.onChange(result);
  }

  private showProblem(problem: string | undefined): void {
    this.problem.hidden = !problem;
    this.problem.textContent = problem ?? '';
    for (const control of [this.samplingValue, this.maxTokens, this.stop]) control.removeAttribute('aria-invalid');
    if (!problem) return;
    const control = problem.startsWith('Max') ? this.maxTokens : problem.startsWith('Stop') ? this.stop : this.samplingValue;
    control.setAttribute('aria-invalid', 'true');
  }
}
