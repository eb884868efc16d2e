// Settings of the neighbouring methods run as lab modes (TCS, ACE): one separate config group, so the main table stays
// as it is. docs/method.md explains each choice.
export interface MethodsConfig {
  /** KTO (ACE's adversary): β, and the weights of desirable (λ_D) and undesirable (λ_U) rollouts (TRL's defaults). */
  kto_beta: number;
  kto_lambda_d: number;
  kto_lambda_u: number;
  /** TCS: the first training step of stage 2 (counterexamples to current failures); steps before it are stage 1. */
  tcs_stage2_step: number;
  /** TCS: how many recent steps of Coder candidates the rolling buffer keeps (1 = this step's only). */
  tcs_buffer_steps: number;
}

export const METHODS_DEFAULTS: MethodsConfig = {
  kto_beta: 0.1,
  kto_lambda_d: 1,
  kto_lambda_u: 1,
  tcs_stage2_step: 10,
  tcs_buffer_steps: 4,
};

/** Throws a clear error for an out-of-range methods setting. */
export function validateMethods(m: MethodsConfig, bad: (msg: string) => never): void {
  if (!(m.kto_beta > 0)) bad(`methods.kto_beta must be > 0, got ${m.kto_beta}`);
  if (!(m.kto_lambda_d >= 0 && m.kto_lambda_u >= 0)) bad('methods.kto_lambda_d and kto_lambda_u must be >= 0');
  if (!(Number.isInteger(m.tcs_stage2_step) && m.tcs_stage2_step >= 0))
    bad(`methods.tcs_stage2_step must be an integer >= 0, got ${m.tcs_stage2_step}`);
  if (!(Number.isInteger(m.tcs_buffer_steps) && m.tcs_buffer_steps >= 1))
    bad(`methods.tcs_buffer_steps must be an integer >= 1, got ${m.tcs_buffer_steps}`);
}
