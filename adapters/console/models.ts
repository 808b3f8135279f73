// The model identifiers API v1 accepts (src/settings/models.ts, the hub's list), for the pickers.
export { MODEL_IDS } from '../../src/settings/models.js';

export const modelOptions = (ids: readonly string[]) => ids.map((id) => ({ value: id, label: id === 'auto' ? 'auto (the hub’s choice)' : id }));
