// Top-level layout of the lab: run controls and storage on the left, the panels as tabs on the right.
import { useState } from 'react';
import { AdapterPanel } from './features/adapter/AdapterPanel';
import { RunPanel } from './features/run/RunPanel';
import { StoragePanel } from './features/run/StoragePanel';
import { ChartsPanel } from './features/charts/ChartsPanel';
import { RolloutInspector } from './features/rollouts/RolloutInspector';
import { MistakeBookPanel } from './features/mistakes/MistakeBookPanel';
import { StepThroughPanel } from './features/steps/StepThroughPanel';
import { EvalPanel } from './features/eval/EvalPanel';
import { PerfPanel } from './features/perf/PerfPanel';
import { ModelPanel } from './features/model/ModelPanel';
import { labStore, useLab } from './store';
import { ErrorBoundary } from './ErrorBoundary';
import type { Tab } from './store/types';

const TABS: { id: Tab; label: string }[] = [
  { id: 'charts', label: 'Charts' },
  { id: 'rollouts', label: 'Rollouts' },
  { id: 'mistakes', label: 'Mistake Book' },
  { id: 'steps', label: 'Step-through' },
  { id: 'eval', label: 'Eval' },
  { id: 'perf', label: 'Perf' },
  { id: 'model', label: 'Model' },
];

export function App() {
  const [gpuOk, setGpuOk] = useState<boolean | null>(null);
  const tab = useLab((s) => s.tab);
  return (
    <main className="lab">
      <header>
        <h1>Code-A1 Lab</h1>
        <p className="tagline">A Coder and a Tester co-evolve by GRPO, on WebGPU, in this tab.</p>
      </header>
      <Banner />
      {/* Without WebGPU nothing can train: say so first, in full width. */}
      {gpuOk === false && <AdapterPanel onAvailability={setGpuOk} />}
      <div className="layout">
        <aside>
          <ErrorBoundary name="run">
            <RunPanel gpuOk={gpuOk === true} />
            <StoragePanel />
          </ErrorBoundary>
          {gpuOk !== false && <AdapterPanel onAvailability={setGpuOk} />}
        </aside>
        <section className="main">
          <nav className="tabs" role="tablist">
            {TABS.map((t) => (
              <button key={t.id} role="tab" aria-selected={tab === t.id} data-testid={`tab-${t.id}`} className={tab === t.id ? 'tab active' : 'tab'} onClick={() => labStore.getState().setTab(t.id)}>
                {t.label}
              </button>
            ))}
          </nav>
          {/* Charts stay mounted (hidden) so their uPlot instances keep following the run. */}
          <div hidden={tab !== 'charts'}>
            <ErrorBoundary name="charts">
              <ChartsPanel />
            </ErrorBoundary>
          </div>
          {tab !== 'charts' && (
            <ErrorBoundary key={tab} name={TABS.find((t) => t.id === tab)!.label}>
              {tab === 'rollouts' && <RolloutInspector />}
              {tab === 'mistakes' && <MistakeBookPanel />}
              {tab === 'steps' && <StepThroughPanel />}
              {tab === 'eval' && <EvalPanel />}
              {tab === 'perf' && <PerfPanel />}
              {tab === 'model' && <ModelPanel />}
            </ErrorBoundary>
          )}
        </section>
      </div>
    </main>
  );
}

function Banner() {
  const b = useLab((s) => s.banner);
  if (!b) return null;
  return (
    <div className={`banner ${b.kind}`} data-testid={b.kind === 'error' ? 'error-banner' : 'info-banner'} role={b.kind === 'error' ? 'alert' : 'status'}>
      {b.text}
      <button className="link" onClick={() => labStore.getState().setBanner(null)}>
        dismiss
      </button>
    </div>
  );
}
