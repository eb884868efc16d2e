// Pre-step for `npm start` / `npm test`: install npm packages (and, for tests as root, Chromium, Firefox ESR, the Vulkan
// loader, Mesa's lavapipe driver, which gives Firefox's WebGPU an adapter on a machine with no GPU, and shellcheck,
// which lints the verl export's launch.sh) if missing.
import { existsSync, readdirSync } from 'node:fs';
import { execSync } from 'node:child_process';

const wantSystem = process.argv.includes('--system');
const run = (cmd) => {
  console.log(`[setup] ${cmd}`);
  execSync(cmd, { stdio: 'inherit' });
};

if (!existsSync('node_modules/.package-lock.json')) run('npm ci --no-audit --no-fund');

if (wantSystem) {
  const missing = [];
  if (!existsSync('/usr/bin/chromium')) missing.push('chromium');
  if (!existsSync('/usr/bin/firefox-esr')) missing.push('firefox-esr');
  const icd = '/usr/share/vulkan/icd.d';
  if (!existsSync(icd) || !readdirSync(icd).some((f) => f.startsWith('lvp_icd.'))) missing.push('mesa-vulkan-drivers');
  if (
    !existsSync('/usr/lib/x86_64-linux-gnu/libvulkan.so.1') &&
    !existsSync('/usr/lib/aarch64-linux-gnu/libvulkan.so.1')
  ) {
    missing.push('libvulkan1');
  }
  if (!existsSync('/usr/bin/shellcheck')) missing.push('shellcheck');
  if (missing.length) {
    const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
    if (isRoot && existsSync('/usr/bin/apt-get')) {
      run('apt-get update -qq');
      run(`DEBIAN_FRONTEND=noninteractive apt-get install -y -qq ${missing.join(' ')}`);
    } else {
      console.error(
        `[setup] missing system packages: ${missing.join(', ')}. Install them (Debian: apt-get install -y ${missing.join(' ')}).`,
      );
      process.exit(1);
    }
  }
}
