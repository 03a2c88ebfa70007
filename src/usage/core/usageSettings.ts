// The usage feature's settings. Prices, the cost header, the budget and the confirmation threshold decide what is
// shown as money, and the retention decides what of the ledger (global storage: every window, workspace and profile)
// is deleted, so they are read at user level only: a cloned repository must not make spending look smaller, nor
// delete the user's history. Only the status bar's visibility follows the workspace.
import { SECTION, type SettingsSource } from '../../settings/settings';
import { amountOf } from './numbers';
import { readPriceSetting, type ModelPrice } from './prices';

export const DEFAULT_COST_HEADER = 'x-litellm-response-cost';
export const DEFAULT_RETENTION_DAYS = 400;

export interface UsageSettings {
  prices: ReadonlyMap<string, ModelPrice>;
  /** Lower-case header name. */
  costHeader: string;
  /** Days the ledger keeps; 0 keeps everything. */
  retentionDays: number;
  /** USD per month, or undefined for none. */
  monthlyBudget: number | undefined;
  /** Ask before an image or video request estimated above this many USD; undefined never asks. */
  confirmAbove: number | undefined;
  statusBar: boolean;
  problems: string[];
}

const HEADER_NAME = /^[a-z0-9][a-z0-9-]{0,63}$/;

export function readUsageSettings(settings: SettingsSource): UsageSettings {
  const source: SettingsSource = { userValue: (key) => settings.userValue(`${SECTION}.${key}`), value: (key) => settings.value(`${SECTION}.${key}`) };
  const problems: string[] = [];
  const { prices, problems: priceProblems } = readPriceSetting(source.userValue('prices'));
  problems.push(...priceProblems);
  const headerSetting = source.userValue<unknown>('usage.costHeader');
  let costHeader = DEFAULT_COST_HEADER;
  if (typeof headerSetting === 'string' && HEADER_NAME.test(headerSetting.trim().toLowerCase())) costHeader = headerSetting.trim().toLowerCase();
  else if (headerSetting !== undefined && headerSetting !== '') problems.push('modelGateway.usage.costHeader must be a header name (letters, digits, dashes); the default is used.');
  const retention = source.userValue<unknown>('usage.retentionDays');
  const retentionDays = typeof retention === 'number' && Number.isInteger(retention) && retention >= 0 && retention <= 36_500 ? retention : DEFAULT_RETENTION_DAYS;
  if (retention !== undefined && retention !== retentionDays) problems.push('modelGateway.usage.retentionDays must be a whole number of days (0 keeps all); the default is used.');
  const money = (key: string): number | undefined => {
    const value = source.userValue<unknown>(key);
    if (value === undefined || value === null || value === 0) return undefined;
    const amount = amountOf(value, 1_000_000);
    if (amount === undefined) problems.push(`modelGateway.${key} must be a non-negative number of USD; ignored.`);
    return amount;
  };
  const monthlyBudget = money('usage.monthlyBudget');
  const confirmAbove = money('usage.confirmPaidAbove');
  const statusBar = source.value<unknown>('usage.statusBar') !== false;
  return { prices, costHeader, retentionDays, monthlyBudget, confirmAbove, statusBar, problems };
}
