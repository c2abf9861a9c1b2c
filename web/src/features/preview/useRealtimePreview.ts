// Opens the preview stream of a tracker and runs the state machine of realtime-preview.ts:
// flushes every 2.5 s, checks the time limits every second, reconnects after a drop.
import { useEffect, useReducer, useRef } from 'react';
import { initialPreview, isFinished, MAX_DISCONNECTS, PREVIEW_FLUSH_MS, previewReducer, reconnectDelay, type PreviewState } from './realtime-preview';

export function previewStreamUrl(hash: string, location: { protocol: string; host: string } = window.location): string {
  const scheme = location.protocol === 'https:' ? 'wss:' : 'ws:';
  return `${scheme}//${location.host}/api/v1/trackers/${encodeURIComponent(hash)}/preview/stream`;
}

/** The preview of `hash` while `enabled`; `onEnd` runs once when it completes or fails. */
export function useRealtimePreview(hash: string, enabled: boolean, onEnd?: (s: PreviewState) => void): PreviewState {
  const [state, dispatch] = useReducer(previewReducer, undefined, () => initialPreview(Date.now()));
  const finished = isFinished(state);
  const onEndRef = useRef(onEnd);
  onEndRef.current = onEnd;
  const ended = useRef(false);

  // Once finished (complete or failed) the socket is closed and nothing reconnects.
  const live = enabled && !finished;
  useEffect(() => {
    if (!live) return;
    let socket: WebSocket | null = null;
    let retry: ReturnType<typeof setTimeout> | undefined;
    let closed = false;
    let drops = 0;
    const connect = () => {
      socket = new WebSocket(previewStreamUrl(hash));
      let done = false;
      socket.onopen = () => dispatch({ type: 'open' });
      socket.onmessage = (e) => {
        let data: unknown = null;
        try {
          data = JSON.parse(String(e.data));
        } catch {
          return;
        }
        if ((data as { type?: string } | null)?.type === 'processing_complete') done = true;
        dispatch({ type: 'message', data, now: Date.now() });
      };
      socket.onclose = () => {
        if (closed || done) return;
        drops += 1;
        dispatch({ type: 'disconnect' });
        if (drops < MAX_DISCONNECTS) retry = setTimeout(connect, reconnectDelay(drops));
      };
    };
    connect();
    const flush = setInterval(() => dispatch({ type: 'flush' }), PREVIEW_FLUSH_MS);
    const tick = setInterval(() => dispatch({ type: 'tick', now: Date.now() }), 1000);
    return () => {
      closed = true;
      clearTimeout(retry);
      clearInterval(flush);
      clearInterval(tick);
      socket?.close();
    };
  }, [hash, live]);

  useEffect(() => {
    if (finished && !ended.current) {
      ended.current = true;
      onEndRef.current?.(state);
    }
  }, [finished, state]);

  return state;
}
