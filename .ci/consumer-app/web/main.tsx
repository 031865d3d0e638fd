// A Vite + React app with gateflow's widget, as a consumer writes it: an
// inline onReply that sets state (it must be told each reply once).
import { StrictMode, useState, version } from 'react';
import { createRoot } from 'react-dom/client';
import { ChatWidget, createHttpTransport } from 'gateflow/react';

// The API on this page's origin, or at ?api=<origin> (another origin, allowed by the server's CORS).
const transport = createHttpTransport({ baseUrl: new URLSearchParams(location.search).get('api') ?? '' });

function App() {
  const [replies, setReplies] = useState(0);
  return (
    <main>
      <p>React <span id="react-version">{version}</span>, replies: <output id="replies">{replies}</output></p>
      <ChatWidget transport={transport} flowId="patient-intake" onReply={() => setReplies((n) => n + 1)} />
    </main>
  );
}

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
