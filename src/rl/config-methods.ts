// Settings of the neighbouring methods run as lab modes (TCS, ACE): their rows of the config table (the last block;
// config-fields.ts spreads them in). docs/method.md explains each choice.
import { BIG, type At, type ConfigPath, type FieldFor, type TrainConfig } from './config-types';

type MethodsPath = Extract<ConfigPath, `methods.${string}`>;

export const METHODS_FIELDS: { readonly [P in MethodsPath]: FieldFor<At<TrainConfig, P>> } = {
  'methods.kto_beta': {
    type: 'number',
    default: 0.1,
    min: 0,
    max: 100,
    minExclusive: true,
    ref: 'TRL KTOConfig.beta',
    help: 'ace: KTO’s β, how sharply the adversary’s loss separates desirable from undesirable input groups.',
  },
  'methods.kto_lambda_d': {
    type: 'number',
    default: 1,
    min: 0,
    max: 100,
    ref: 'TRL KTOConfig.desirable_weight',
    help: 'ace: KTO weight of desirable input groups (those that broke their program).',
  },
  'methods.kto_lambda_u': {
    type: 'number',
    default: 1,
    min: 0,
    max: 100,
    ref: 'TRL KTOConfig.undesirable_weight',
    help: 'ace: KTO weight of undesirable input groups (their program survived).',
  },
  'methods.tcs_stage2_step': {
    type: 'int',
    default: 10,
    min: 0,
    max: BIG,
    help: 'tcs: first training step of stage 2 (counterexamples to the solver’s current failures); earlier steps reward consistency with the reference.',
  },
  'methods.tcs_buffer_steps': {
    type: 'int',
    default: 4,
    min: 1,
    max: 1000,
    help: 'tcs: how many recent steps of Coder candidates the rolling buffer keeps (1 = this step’s only).',
  },
};
