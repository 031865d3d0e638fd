export { coerceInput, expectedValue, MAX_INPUT_TEXT, type CoercedInput, type InputValue } from './coerce.js';
export { declaredInputs, InvalidInputSpecError, waitsFor, type DeclaredInputs, type InputsOf, type WaitsFor } from './declared.js';
export { InputClosedError, InputForbiddenError, InputNotFoundError, InvalidInputValueError } from './errors.js';
export {
  INPUT_ANSWERED,
  INPUT_TIMED_OUT,
  lastInputAnswered,
  type InputAnsweredEvent,
  type InputEvent,
  type InputTimedOutEvent,
} from './events.js';
export { GateStatusSchema, isGateId, newGateId, openInputOf, OpenInputSchema, type GateClosing, type GateRecord, type GateStatus, type OpenInput } from './gate.js';
export {
  DurationSchema,
  durationMs,
  InputNameSchema,
  InputOptionSchema,
  InputRoleSchema,
  InputSpecSchema,
  inputOptions,
  type InputOption,
  type InputSpec,
  type InputType,
} from './spec.js';
