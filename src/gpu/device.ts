// Device acquisition shared by browser and Node: ask for the adapter's larger limits, surface device loss.
export interface AdapterSummary {
  vendor: string;
  architecture: string;
  device: string;
  description: string;
  /**
   * GPUAdapterInfo.isFallbackAdapter: a CPU implementation in practice (SwiftShader in Chromium and Node, lavapipe or
   * SwiftShader under Firefox's wgpu). Firefox leaves vendor and description empty, so this is the one sign there.
   */
  fallback: boolean;
  features: string[];
  limits: Record<string, number>;
}

export interface AcquiredDevice {
  adapter: GPUAdapter;
  device: GPUDevice;
  summary: AdapterSummary;
  hasTimestamps: boolean;
  hasSubgroups: boolean;
  /** The device was created with 'shader-f16' (WGSL `enable f16`): the f16 compute path can run. */
  hasF16: boolean;
}

export class NoAdapterError extends Error {
  constructor(detail: string) {
    super(`No WebGPU adapter could be acquired: ${detail}`);
    this.name = 'NoAdapterError';
  }
}

/** Limits worth raising to the adapter's maximum: big models need big buffers and many bindings. */
const RAISED_LIMITS = [
  'maxStorageBufferBindingSize',
  'maxBufferSize',
  'maxStorageBuffersPerShaderStage',
  'maxComputeWorkgroupStorageSize',
  'maxComputeInvocationsPerWorkgroup',
  'maxComputeWorkgroupSizeX',
  'maxComputeWorkgroupSizeY',
  'maxComputeWorkgroupSizeZ',
  'maxComputeWorkgroupsPerDimension',
] as const;

export function summarizeAdapter(adapter: GPUAdapter): AdapterSummary {
  const info = adapter.info;
  const limits: Record<string, number> = {};
  // GPUSupportedLimits exposes its fields as prototype getters, so enumerate the known names.
  for (const key of RAISED_LIMITS) limits[key] = Number(adapter.limits[key]);
  limits.maxComputeWorkgroupStorageSize = Number(adapter.limits.maxComputeWorkgroupStorageSize);
  limits.maxUniformBufferBindingSize = Number(adapter.limits.maxUniformBufferBindingSize);
  return {
    vendor: info?.vendor || 'unknown',
    architecture: info?.architecture || 'unknown',
    device: info?.device || '',
    description: info?.description || '',
    // Older implementations had it on the adapter itself.
    fallback: !!(info?.isFallbackAdapter ?? (adapter as { isFallbackAdapter?: boolean }).isFallbackAdapter),
    features: [...adapter.features].map(String).sort(),
    limits,
  };
}

export type RaisedLimit = (typeof RAISED_LIMITS)[number];

export interface AcquireOptions {
  powerPreference?: GPUPowerPreference;
  /**
   * Upper bounds on the limits requested (the adapter's value otherwise): a device as a smaller adapter would give,
   * to test refusals and kernel variants. WebGPU never grants less than its defaults, so caps below those do nothing.
   */
  limitCaps?: Partial<Record<RaisedLimit, number>>;
  /** Called once if the device is lost (driver reset, tab backgrounded, destroy()). */
  onLost?: (info: GPUDeviceLostInfo) => void;
}

export async function acquireDevice(gpu: GPU, opts: AcquireOptions = {}): Promise<AcquiredDevice> {
  const adapter = await gpu.requestAdapter({ powerPreference: opts.powerPreference ?? 'high-performance' });
  if (!adapter) throw new NoAdapterError('requestAdapter() returned null');
  const requiredLimits: Record<string, number> = {};
  // Only what the adapter offers (asking for more fails requestDevice), lowered to any cap the caller set.
  for (const key of RAISED_LIMITS)
    requiredLimits[key] = Math.min(Number(adapter.limits[key]), opts.limitCaps?.[key] ?? Infinity);
  const wanted: GPUFeatureName[] = ['timestamp-query', 'subgroups', 'shader-f16'];
  const requiredFeatures = wanted.filter((f) => adapter.features.has(f));
  const device = await adapter.requestDevice({ label: 'code-a1-lab', requiredLimits, requiredFeatures });
  void device.lost.then((info) => opts.onLost?.(info));
  device.onuncapturederror = (ev: GPUUncapturedErrorEvent) => {
    console.error(`[gpu] uncaptured error: ${ev.error.message}`);
  };
  return {
    adapter,
    device,
    summary: summarizeAdapter(adapter),
    hasTimestamps: requiredFeatures.includes('timestamp-query'),
    hasSubgroups: requiredFeatures.includes('subgroups'),
    hasF16: requiredFeatures.includes('shader-f16'),
  };
}
