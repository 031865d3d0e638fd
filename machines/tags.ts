/**
 * The tag a statechart's state carries while it waits for its own work (an
 * invoked model call, an action, a vote): the runtime waits until no state of
 * a session's machine, or of its child machines, carries it. Defined here,
 * once, because machines/ imports nothing of src/; src/ takes it from here.
 */
export const BUSY_TAG = 'busy';
