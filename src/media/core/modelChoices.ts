// The models Generate Image offers in its picker (and any media command that asks for a model): the configured
// default first, then the listed models of the kind, each retiring one marked (models/core's retiringMarks, as in the
// chat's pickers, List Models and Diagnose Models). Pure; the time is the caller's clock.
import { retiringMarks, type CatalogSnapshot } from '../../models/core/api';
import type { ModelChoices } from '../../ui/core/modelPickItems';

export function mediaModelChoices(snapshot: CatalogSnapshot | undefined, kind: 'image' | 'speech', configured: string | undefined, now: number): ModelChoices {
  const models = (snapshot?.models ?? []).filter((m) => m.kind === kind);
  const listed = models.map((m) => m.id);
  const ids = configured ? [configured, ...listed.filter((id) => id !== configured)] : listed;
  const marks = retiringMarks(models, now);
  return { ids, placeholder: listed.length > 0 ? `Choose the ${kind} model` : `The gateway lists no ${kind} model; enter one with "Other model id…"`, ...(Object.keys(marks).length > 0 && { marks }) };
}
