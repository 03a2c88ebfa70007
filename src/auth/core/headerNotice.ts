// Tells the user, once per profile, origin and set of names, which headers are not sent because they have no value
// (an imported profile, a header named without its value, a profile moved to another host) and how to fill them in.
import { isDefaultProfile } from '../../settings/profile';

export interface UnfilledHeadersNews {
  profile: string;
  origin: string;
  names: string[];
}

export interface HeaderNoticeDeps {
  notify(kind: 'warning', message: string, ...actions: string[]): PromiseLike<string | undefined>;
  /** The profile's name (undefined: it no longer exists). */
  nameOf(profileId: string): string | undefined;
  /** Opens where the values are filled in: Edit Profile, or the setting for Default. */
  fillIn(profileId: string): unknown;
}

export const EDIT_PROFILE = 'Edit Profile…';
export const OPEN_SETTING = 'Open Settings';

export class UnfilledHeaderNotice {
  private readonly told = new Set<string>();

  constructor(private readonly deps: HeaderNoticeDeps) {}

  tell(news: UnfilledHeadersNews): void {
    const name = this.deps.nameOf(news.profile);
    const key = JSON.stringify([news.profile, news.origin, [...news.names].sort()]);
    if (name === undefined || this.told.has(key)) return;
    this.told.add(key);
    const list = news.names.map((n) => `"${n}"`).join(', ');
    const one = news.names.length === 1;
    const what = `${one ? 'header' : 'headers'} ${list} ${one ? 'has' : 'have'} no value, so ${one ? 'it is' : 'they are'} not sent to ${news.origin}.`;
    const isDefault = isDefaultProfile(news.profile);
    const how = isDefault
      ? 'Fill in the value in the modelGateway.requestHeaders user setting: it is then moved to secret storage, beside the key.'
      : `Fill in the value with Profiles… › Edit "${name}": it is kept in secret storage, beside the key, never in the profile list.`;
    const action = isDefault ? OPEN_SETTING : EDIT_PROFILE;
    void Promise.resolve(this.deps.notify('warning', `The profile "${name}": ${what} ${how}`, action)).then((choice) => {
      if (choice === action) this.deps.fillIn(news.profile);
    });
  }
}
