// The auth feature from the outside: what other features may import of it; the layering test refuses any other
// file. The key source: the store of API keys (SecretStorage, per profile key slot and origin), which the
// composition root builds with authFeature.keyStore and shares; others read it, never the keys' storage itself.
export type { ApiKeyStore, KeyValidation } from './apiKeyStore';
