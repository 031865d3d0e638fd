import { GateflowError } from '../error/gateflow-error.js';
import { quote } from '../workflow/untrusted-string.js';

/** No such gate, or not one the caller may see. Never silently ignored. */
export class InputNotFoundError extends GateflowError {
  override readonly name = 'InputNotFoundError';
  readonly code = 'input_not_found';
  readonly status = 404;
  constructor(readonly gateId: string) {
    super(`no input gate ${quote(gateId)}`);
  }
}

/** The gate was answered, timed out, or closed with its session: it takes no answer. */
export class InputClosedError extends GateflowError {
  override readonly name = 'InputClosedError';
  readonly code = 'input_closed';
  readonly status = 409;
  constructor(
    readonly gateId: string,
    readonly gateStatus: string,
  ) {
    super(`input gate ${quote(gateId)} is closed (${gateStatus.replace('_', ' ')}): it takes no answer`);
  }
}

/** A value the gate's type does not allow: the gate stays open. */
export class InvalidInputValueError extends GateflowError {
  override readonly name = 'InvalidInputValueError';
  readonly code = 'invalid_input_value';
  readonly status = 400;
  constructor(
    readonly gateId: string,
    readonly input: string,
    readonly expected: string,
    detail: string,
  ) {
    super(`input ${quote(input)} (gate ${gateId}) still waits: ${detail}`);
  }
}

/** A gate addressed to a role the caller does not hold. */
export class InputForbiddenError extends GateflowError {
  override readonly name = 'InputForbiddenError';
  readonly code = 'input_forbidden';
  readonly status = 403;
  constructor(
    readonly gateId: string,
    readonly role: string,
  ) {
    super(`input gate ${quote(gateId)} is answered by the role ${quote(role)}, which the caller does not hold`);
  }
}
