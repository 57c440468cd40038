// The CLI's name for it; one implementation in core.
export { realOrSelf as realPathOrSelf } from '../core/fs-checks.js';
