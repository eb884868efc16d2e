// App entry: restores the saved run (or the config in the URL), then mounts the React tree.
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App';
import { labStore } from './store';
import { restoreOnLoad } from './actions';
import { keepPrefs, loadPrefs } from './persist/prefs';
import './lab';
import './styles.css';

loadPrefs(labStore);
keepPrefs(labStore);
restoreOnLoad(labStore)
  .catch((e: Error) =>
    labStore
      .getState()
      .setBanner({ kind: 'error', area: 'page', text: `Could not restore the saved run: ${e.message}` }),
  )
  .finally(() => {
    document.documentElement.dataset.restored = 'true';
  });

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
