// The models feature from the outside: what other features may import of it (the layering test refuses any other
// file). Types and pure helpers only: the catalog each profile shares (built by models/vscode/feature.ts at
// activation), the kind rule that sorts models into chat, image, speech and video, and what the chat and the usage
// feature read of a model's description.
export type { CatalogModel, CatalogSnapshot, LoadOptions, ModelCatalog } from './modelCatalog';
export type { ModelCatalogs } from './modelCatalogs';
export { classifyModel, transcribes, type ModelKind } from './modelKind';
export { summarizeModels } from './modelList';
export { effortLevelsOf } from './reasoningLevels';
export { retiringMarks } from './retirement';
export { contextWindowOf, DEFAULT_MAX_INPUT_TOKENS, seesImages } from './lmMapping';
