// Top-level layout of the lab.
import { AdapterPanel } from './features/adapter/AdapterPanel';

export function App() {
  return (
    <main className="lab">
      <header>
        <h1>Code-A1 Lab</h1>
        <p className="tagline">A Coder and a Tester co-evolve by GRPO, on WebGPU, in this tab.</p>
      </header>
      <AdapterPanel />
    </main>
  );
}
