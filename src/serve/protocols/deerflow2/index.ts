export { deerFlow2Face, DEERFLOW2_ASSISTANT } from './face.js';
export { addDeerFlow2Routes, SIGN_IN_PATH, type DeerFlow2Options } from './gateway.js';
export { deerFlow2SignIn } from './sign-in.js';
