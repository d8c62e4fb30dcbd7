/**
 * @xenova/transformers is an optional dependency (it pulls sharp and onnxruntime-node, whose native
 * parts may fail to install, e.g. where sharp cannot download libvips). It is imported only when the
 * `transformers` embedder is used; when it is absent or does not load, this says what to install.
 */
import { errors } from '../../core/errors.js';

export type TransformersModule = typeof import('@xenova/transformers');

export const TRANSFORMERS_PACKAGE = '@xenova/transformers';

export async function loadTransformers(importer: () => Promise<TransformersModule> = () => import('@xenova/transformers')): Promise<TransformersModule> {
  try {
    return await importer();
  } catch (e) {
    throw errors.embedderPackageMissing(
      'transformers',
      TRANSFORMERS_PACKAGE,
      e,
      '--embedder use-lite (bundled, offline) or --embedder openai (an OpenAI-compatible endpoint)',
    );
  }
}
