import * as assert from 'node:assert/strict';
import { GatewayError } from '../../../../src/gateway/errors';

/** Awaits a call that must fail, and returns its GatewayError. */
export async function rejectionOf(promise: Promise<unknown>): Promise<GatewayError> {
  const error = await promise.then(
    () => assert.fail('expected the call to fail'),
    (e: unknown) => e,
  );
  assert.ok(error instanceof GatewayError, `expected a GatewayError, got ${String(error)}`);
  return error;
}
