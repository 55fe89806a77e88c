import { useEffect, useState } from 'preact/hooks';
import { BatchPage } from './BatchPage.tsx';
import { PortPage } from './PortPage.tsx';
import { PortsPage } from './PortsPage.tsx';
import { parseRoute } from './route.ts';

export function App() {
  const [route, setRoute] = useState(() => parseRoute(location.hash));
  useEffect(() => {
    const onChange = () => setRoute(parseRoute(location.hash));
    addEventListener('hashchange', onChange);
    return () => removeEventListener('hashchange', onChange);
  }, []);
  return (
    <>
      <header>
        <h1>
          <a href="#/">rvport dashboard</a>
        </h1>
        <span class="muted">read-only view of an output folder</span>
      </header>
      <main>
        {route.page === 'port' ? (
          <PortPage key={route.key} portKey={route.key} log={route.log} logPage={route.logPage} />
        ) : route.page === 'batch' ? (
          <BatchPage key={route.key} batchKey={route.key} />
        ) : (
          <PortsPage />
        )}
      </main>
    </>
  );
}
