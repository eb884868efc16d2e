// AdamW state as a file of a saved policy (optimizer.safetensors: adam_m, adam_v over the flat trainable buffer, and
// the step count), shared by the lab's full fine-tuning and the LoRA adapters, so a resumed run continues exactly.
import { bytesOf, decodeSafetensors, encodeSafetensors, toFloat32 } from '../model/checkpoint-safetensors';
import type { PolicyFiles } from './policy';

export const OPTIMIZER_FILE = 'optimizer.safetensors';

export interface OptimizerState {
  m: Float32Array;
  v: Float32Array;
  step: number;
}

export function encodeOptimizer(s: OptimizerState): Uint8Array {
  return encodeSafetensors(
    [
      { name: 'adam_m', dtype: 'F32', shape: [s.m.length], data: bytesOf(s.m) },
      { name: 'adam_v', dtype: 'F32', shape: [s.v.length], data: bytesOf(s.v) },
    ],
    { step: String(s.step) },
  );
}

/** The saved optimizer state, or undefined when the policy had taken no step. */
export function decodeOptimizer(files: PolicyFiles, who: string): OptimizerState | undefined {
  const bytes = files[OPTIMIZER_FILE];
  if (!bytes) return undefined;
  const f = decodeSafetensors(bytes, OPTIMIZER_FILE);
  const m = f.tensors.get('adam_m');
  const v = f.tensors.get('adam_v');
  if (!m || !v) throw new Error(`${who}: ${OPTIMIZER_FILE} lacks adam_m/adam_v`);
  return { m: toFloat32(m), v: toFloat32(v), step: Number(f.metadata.step ?? 0) };
}
