// Facts of the published Code-A1 release that the page needs without loading the exporter.
/** The release's default Coder and Tester (code/rl/config/1.5B_A1.yaml). */
export const RELEASE_MODEL = 'Qwen/Qwen2.5-Coder-1.5B-Instruct';
