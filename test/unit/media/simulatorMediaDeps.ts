// The media core's dependencies over the simulator and the real client, shared by the generation and Edit Image
// tests: each case varies only what it reads back through `current` (the models listed, the settings, the dialect).
import { GatewayClient } from '../../../src/gateway/client';
import type { GatewayAccess } from '../../../src/gateway/connection';
import type { MediaCoreDeps } from '../../../src/media/core/mediaGeneration';
import type { MediaHistory } from '../../../src/media/core/mediaHistory';
import { toCatalogModel } from '../../../src/models/core/modelListing';
import type { DialectSetting } from '../../../src/settings/profile';
import { readSettings, type MediaDefaults } from '../../../src/settings/settings';
import { startSimulator, type Simulator } from '../../simulator';

export interface SimulatorMedia {
  sim: Simulator;
  client: GatewayClient;
}

/** Starts one simulator and client for the enclosing `describe` and closes them after it. */
export function useSimulatorMedia(): SimulatorMedia {
  const media = {} as SimulatorMedia;
  before(async () => {
    media.sim = await startSimulator();
    media.client = new GatewayClient({ baseUrl: media.sim.baseUrl, apiKey: media.sim.apiKey });
  });
  after(async () => {
    await media.client.close();
    await media.sim.close();
  });
  return media;
}

export interface MediaCase {
  history: MediaHistory;
  listed: readonly string[];
  /** Settings by key, as VS Code's configuration would answer them. */
  settings?: Record<string, unknown>;
  override?: Partial<MediaDefaults>;
  dialect?: DialectSetting;
  /** Given to the listed image models only. */
  architecture?: Record<string, unknown>;
  access?: () => GatewayAccess;
}

export function simulatorMediaDeps({ sim, client }: SimulatorMedia, current: () => MediaCase): MediaCoreDeps {
  const open = (): GatewayAccess => ({ ok: true, api: client, origin: sim.origin });
  const setting = <T>(key: string) => current().settings?.[key] as T;
  return {
    connection: { origin: sim.origin, access: async () => (current().access ?? open)(), resultFetchOptions: async () => ({}) },
    models: {
      load: async () => {
        const { listed, architecture } = current();
        return { origin: sim.origin, loadedAt: 0, models: listed.map((id) => toCatalogModel({ id, object: 'model', ...(architecture && id.includes('image') && { architecture }) })) };
      },
    },
    history: current().history,
    settings: () => ({ ...readSettings({ userValue: setting, value: setting }).media, ...current().override }),
    dialect: () => current().dialect,
  };
}
