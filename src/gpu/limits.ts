// What a workload needs of a WebGPU device, and a refusal that names the first limit the device falls short of (a
// smaller adapter gets one clear line up front, not a validation error mid-run).
export const NEEDED_LIMITS = [
  'maxStorageBuffersPerShaderStage',
  'maxComputeInvocationsPerWorkgroup',
  'maxComputeWorkgroupStorageSize',
  'maxStorageBufferBindingSize',
  'maxBufferSize',
] as const;

export type NeededLimit = (typeof NEEDED_LIMITS)[number];
export type LimitNeeds = Record<NeededLimit, number>;

export class AdapterLimitError extends Error {
  constructor(
    readonly limit: NeededLimit,
    readonly needed: number,
    readonly offered: number,
    what: string,
  ) {
    super(
      `${what} needs ${limit} ≥ ${needed.toLocaleString('en')}; this WebGPU device offers ${offered.toLocaleString('en')}`,
    );
    this.name = 'AdapterLimitError';
  }
}

/** Throws AdapterLimitError for the first need above the device's limit (`what` names the workload). */
export function checkLimits(limits: GPUSupportedLimits, needs: LimitNeeds, what: string): void {
  for (const key of NEEDED_LIMITS) {
    const offered = Number(limits[key]);
    if (offered < needs[key]) throw new AdapterLimitError(key, needs[key], offered, what);
  }
}
