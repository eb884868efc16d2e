// Settings of the neighbouring methods run as lab modes (TCS, ACE): their own config group. Defaults, ranges and
// help live in the config table (config-fields.ts, the last block); docs/method.md explains each choice.
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
