// The Python harness sources, imported as text (Vite `?raw`; scripts/raw-loader.mjs does the same under tsx).
import api from './api.py?raw';
import extract from './extract.py?raw';
import guard from './guard.py?raw';
import harness from './harness.py?raw';
import suite from './suite.py?raw';
import type { HarnessSources } from './protocol';

export const harnessSources: HarnessSources = { guard, harness, extract, suite, api };
