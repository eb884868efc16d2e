// A validation walk over every pipeline a lab uses: the warm-up's dry run of rollouts and GRPO updates at every
// rollout precision the device supports (f32, int8, int4, and f16 where it has 'shader-f16'), with the kernel
// variants of a CPU adapter and of a GPU alike (every test browser here runs on a CPU adapter, so the GPU variants
// are validated nowhere else), each pipeline compiled by the stack (Dawn/Tint, wgpu/naga) and its verdict kept, so a
// kernel one stack rejects is named with its message.
import type { Gpu } from '../gpu/runtime';
import type { PipelineVerdict } from '../gpu/pipelines';
import type { LoadedCheckpoint } from '../model/checkpoint';
import type { RolloutPrecision } from '../model/rollout-select';
import type { TrainConfig } from '../rl/config';
import { warmLabPipelines } from './lab-warmup';

export async function walkLabPipelines(
  gpu: Gpu,
  config: TrainConfig,
  ck: LoadedCheckpoint,
): Promise<PipelineVerdict[]> {
  const precisions: RolloutPrecision[] = ['none', 'int8', 'int4', ...(gpu.hasF16 ? (['f16'] as const) : [])];
  const software = gpu.tuning.software;
  try {
    for (const variants of [true, false])
      for (const rollout_quant of precisions) {
        gpu.tuning.software = variants;
        await warmLabPipelines(
          gpu,
          { ...config, rollout: { ...config.rollout, rollout_quant } },
          { coder: ck, tester: ck },
          'train',
        );
      }
  } finally {
    gpu.tuning.software = software;
  }
  await gpu.pipelines.ready();
  return gpu.pipelines.verdicts();
}
