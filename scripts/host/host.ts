// A minimal MCP Apps host, on the host side of the ext-apps SDK (its AppBridge): it renders a view in a
// sandboxed iframe, hands it a tool result, and answers the view's tool calls through `hostCallTool`
// (provided by the page's embedder: the browser tests over the real server, or `npm run preview`).
import { AppBridge, PostMessageTransport } from '@modelcontextprotocol/ext-apps/app-bridge';
import { HOST_BACKGROUND } from './theme.js';

type CallTool = (params: {
  name: string;
  arguments?: Record<string, unknown> | undefined;
}) => Promise<Record<string, unknown>>;
declare global {
  interface Window {
    hostCallTool: CallTool;
    mountView: (
      html: string,
      result: Record<string, unknown>,
      theme: 'light' | 'dark',
      into?: HTMLElement,
    ) => Promise<void>;
  }
}

window.mountView = async (html, result, theme, into = document.body) => {
  // As hosts do: their page's colour scheme is their theme. (The App SDK gives the view the same
  // color-scheme; Chromium paints a frame whose scheme differs from its embedder's opaque.)
  document.documentElement.style.colorScheme = theme;
  document.documentElement.style.background = HOST_BACKGROUND[theme];
  document.documentElement.style.color = theme === 'dark' ? '#ececec' : '#1b1b1f';
  const iframe = document.createElement('iframe');
  // Scripts only: no same origin, no forms, no popups, as hosts sandbox a view.
  iframe.setAttribute('sandbox', 'allow-scripts');
  // Inline, as hosts show a view in the conversation: as wide as the panel, as tall as the view asks.
  iframe.style.cssText = 'display: block; width: 100%; height: 600px; border: 0;';
  into.append(iframe);
  // Each mount adds a frame below the last: it is scrolled to, as a host scrolls to the newest view. Left
  // below the window, a cross-origin frame is not rendered (Chromium throttles it), and a click waited in
  // vain for its button to be still (30 s, in a full run where earlier tests had filled the page).
  iframe.scrollIntoView({ block: 'start' });
  // What the view learns when it greets its host.
  const hostContext = {
    theme,
    displayMode: 'inline' as const,
    containerDimensions: { width: iframe.clientWidth || 900, maxHeight: 6000 },
  };
  const bridge = new AppBridge(
    null,
    { name: 'test-host', version: '1.0.0' },
    { serverTools: {}, logging: {} },
    { hostContext },
  );
  bridge.addEventListener('sizechange', ({ height }) => {
    if (height !== undefined) iframe.style.height = `${Math.ceil(height)}px`;
  });
  bridge.oncalltool = async (params) => (await window.hostCallTool(params)) as never;
  const initialized = new Promise<void>((resolve) => {
    bridge.oninitialized = () => resolve();
  });
  await bridge.connect(
    new PostMessageTransport(iframe.contentWindow as Window, iframe.contentWindow as Window),
  );
  iframe.srcdoc = html;
  await initialized;
  // The view loads (and greets its host) while a call runs; the result comes later. The bench measures
  // from here to the view's paint.
  (window as unknown as { resultSentAt: number }).resultSentAt = performance.timeOrigin + performance.now();
  await bridge.sendToolResult(result as never);
};
