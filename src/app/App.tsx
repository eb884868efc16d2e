// Top-level layout of the lab: the run controls first (above the fold on any screen), the loop diagram in presenter
// view, then the run setup and storage on the left and the panels as tabs on the right.
import { useRef, useState, type KeyboardEvent } from 'react';
import { AdapterPanel } from './features/adapter/AdapterPanel';
import { RunPanel } from './features/run/RunPanel';
import { RunControls } from './features/run/RunControls';
import { Notice } from './features/run/Notice';
import { StoragePanel } from './features/run/StoragePanel';
import { ChartsPanel } from './features/charts/ChartsPanel';
import { RolloutInspector } from './features/rollouts/RolloutInspector';
import { MistakeBookPanel } from './features/mistakes/MistakeBookPanel';
import { StepThroughPanel } from './features/steps/StepThroughPanel';
import { LoopDiagram } from './features/steps/LoopDiagram';
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
  const presenter = useLab((s) => s.presenter);
  return (
    <main className={presenter ? 'lab presenter' : 'lab'}>
      <header>
        <h1>Code-A1 Lab</h1>
        <p className="tagline">A Coder and a Tester co-evolve by GRPO, on WebGPU, in this tab.</p>
      </header>
      <Notice area="page" />
      {/* Without WebGPU nothing can train: say so first, in full width. */}
      {gpuOk === false && <AdapterPanel onAvailability={setGpuOk} />}
      <ErrorBoundary name="run controls">
        <RunControls gpuOk={gpuOk === true} />
      </ErrorBoundary>
      {presenter && (
        <ErrorBoundary name="loop diagram">
          <LoopDiagram />
        </ErrorBoundary>
      )}
      <div className="layout">
        <aside>
          <ErrorBoundary name="run">
            <RunPanel />
            <StoragePanel />
          </ErrorBoundary>
          {gpuOk !== false && <AdapterPanel onAvailability={setGpuOk} />}
        </aside>
        <section className="main" aria-label="Panels">
          <Tabs tab={tab} />
          {/* Charts stay mounted (hidden) so their uPlot instances keep following the run. */}
          <div hidden={tab !== 'charts'} role="tabpanel" id="panel-charts" aria-labelledby="tab-charts" tabIndex={0}>
            <ErrorBoundary name="charts">
              <ChartsPanel />
            </ErrorBoundary>
          </div>
          {tab !== 'charts' && (
            <div role="tabpanel" id={`panel-${tab}`} aria-labelledby={`tab-${tab}`} tabIndex={0}>
              <ErrorBoundary key={tab} name={TABS.find((t) => t.id === tab)!.label}>
                {tab === 'rollouts' && <RolloutInspector />}
                {tab === 'mistakes' && <MistakeBookPanel />}
                {tab === 'steps' && <StepThroughPanel />}
                {tab === 'eval' && <EvalPanel />}
                {tab === 'perf' && <PerfPanel />}
                {tab === 'model' && <ModelPanel />}
              </ErrorBoundary>
            </div>
          )}
        </section>
      </div>
    </main>
  );
}

/** WAI-ARIA tabs: one Tab stop, arrow keys (and Home / End) move between tabs. */
function Tabs({ tab }: { tab: Tab }) {
  const refs = useRef<(HTMLButtonElement | null)[]>([]);
  const onKey = (e: KeyboardEvent) => {
    const i = TABS.findIndex((t) => t.id === tab);
    const next =
      e.key === 'ArrowRight'
        ? (i + 1) % TABS.length
        : e.key === 'ArrowLeft'
          ? (i + TABS.length - 1) % TABS.length
          : e.key === 'Home'
            ? 0
            : e.key === 'End'
              ? TABS.length - 1
              : -1;
    if (next < 0) return;
    e.preventDefault();
    labStore.getState().setTab(TABS[next].id);
    refs.current[next]?.focus();
  };
  return (
    <nav className="tabs" role="tablist" aria-label="Lab panels" onKeyDown={onKey}>
      {TABS.map((t, i) => (
        <button
          key={t.id}
          ref={(el) => {
            refs.current[i] = el;
          }}
          role="tab"
          id={`tab-${t.id}`}
          aria-selected={tab === t.id}
          aria-controls={`panel-${t.id}`}
          tabIndex={tab === t.id ? 0 : -1}
          data-testid={`tab-${t.id}`}
          className={tab === t.id ? 'tab active' : 'tab'}
          onClick={() => labStore.getState().setTab(t.id)}
        >
          {t.label}
        </button>
      ))}
    </nav>
  );
}
