import { ContentPartError } from '../errors.js';
import type { Message } from '../schema/message.js';
import type { ChatModel } from './chat-model.js';

/** Well-known text-only models (no image input); everything else is unknown unless configured. */
const TEXT_ONLY = /^(gpt-3\.5|o1-mini|o3-mini|deepseek-(chat|reasoner|coder))/i;

/**
 * Whether a model takes images and PDFs: `vision:` in agents.yaml wins; then a provider whose API
 * takes no images, then the well-known text-only names say false; otherwise unknown (undefined: sent).
 */
export function modelVision(model: string, configured: boolean | undefined, providerImages = true): boolean | undefined {
  if (configured !== undefined) return configured;
  if (!providerImages || TEXT_ONLY.test(model.replace(/^.*\//, ''))) return false;
  return undefined;
}

/** Refuses, before any request, to send images or files to a model that takes none. */
export function assertVision(model: ChatModel, messages: readonly Message[]): void {
  if (model.vision !== false) return;
  const parts = messages.flatMap((m) => m.parts ?? []);
  if (!parts.length) return;
  const what = parts.some((p) => p.type === 'image') ? (parts.some((p) => p.type === 'file') ? 'images and PDFs' : 'images') : 'PDFs';
  throw new ContentPartError(
    'no_vision',
    `model ${model.modelName} does not take ${what}: nothing was sent. Use a model with vision, or set \`vision: true\` on its models: entry in agents.yaml if it has vision.`,
  );
}
