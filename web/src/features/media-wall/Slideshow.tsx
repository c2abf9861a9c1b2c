// The wall as a slideshow: one post large at a time, turning every 6 s (Prev, Pause and Next, and
// the arrow keys). At its last post it asks for 50 more when the tracker may have them, and
// otherwise starts over. It follows a post by its key, so posts arriving meanwhile do not move it.
import { useCallback, useEffect, useRef, useState } from 'react';
import type { WallPost } from '../../api/queries/media-wall';
import { NO_CAPTION } from '../posts/format';
import { cardTitle, previousIndex, SLIDE_MS, slideshowNext } from './wall-data';
import { IconChevronLeft, IconChevronRight, IconPause, IconPlay } from './wall-icons';
import { WallMedia } from './WallMedia';
import { authorLabel, Avatar, PlatformChip, PostTime, Stats, useEnterAnimation, type WallTheme } from './WallPostCard';

export function Slideshow({
  posts,
  asked,
  theme,
  displayText,
  now,
  fullscreen,
  controls,
  onGrow,
  onBroken,
}: {
  posts: WallPost[];
  /** How many posts the wall asked for: fewer loaded means the tracker has no more. */
  asked: number;
  theme: WallTheme;
  displayText: boolean;
  now: number;
  fullscreen: boolean;
  /** Prev, Pause and Next (not in an embed). */
  controls: boolean;
  onGrow: () => void;
  onBroken: (key: string) => void;
}) {
  const [currentKey, setCurrentKey] = useState<string | null>(null);
  const [paused, setPaused] = useState(false);
  // Bumped on every step, so the timer starts again even when the slide stays (waiting for more).
  const [step, setStep] = useState(0);
  // The position the slideshow goes to once the 50 more it asked for have come.
  const waitingFor = useRef<number | null>(null);

  const found = currentKey === null ? -1 : posts.findIndex((p) => p.key === currentKey);
  const index = found >= 0 ? found : 0;
  const post = posts[index] ?? null;

  const show = useCallback((i: number) => {
    waitingFor.current = null;
    setCurrentKey(posts[i]?.key ?? null);
    setStep((s) => s + 1);
  }, [posts]);

  const next = useCallback(() => {
    const to = slideshowNext(index, posts.length, asked);
    if (to.grow) {
      waitingFor.current = index + 1;
      setStep((s) => s + 1);
      onGrow();
      return;
    }
    show(to.index);
  }, [index, posts.length, asked, onGrow, show]);

  const previous = useCallback(() => show(previousIndex(index, posts.length)), [index, posts.length, show]);

  // The 50 more have come: on to the first of them.
  useEffect(() => {
    const want = waitingFor.current;
    if (want !== null && posts.length > want) show(want);
  }, [posts.length, show]);

  // One timer per step: a refreshed list must not restart the wait, so the timer calls the
  // latest `next` through a ref.
  const nextRef = useRef(next);
  nextRef.current = next;
  const single = posts.length < 2;
  useEffect(() => {
    if (paused || single) return;
    const t = setTimeout(() => nextRef.current(), SLIDE_MS);
    return () => clearTimeout(t);
  }, [paused, step, single]);

  // Arrow keys turn the slides, unless the visitor is typing or a dialog is open.
  useEffect(() => {
    function onKey(e: KeyboardEvent) {
      if (e.defaultPrevented || e.altKey || e.ctrlKey || e.metaKey) return;
      if (e.key !== 'ArrowLeft' && e.key !== 'ArrowRight') return;
      const target = e.target as HTMLElement | null;
      if (target?.closest('input, textarea, select, [contenteditable="true"], [role="dialog"], [role="slider"]')) return;
      if (document.querySelector('[role="dialog"]')) return;
      e.preventDefault();
      if (e.key === 'ArrowLeft') previous();
      else next();
    }
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [next, previous]);

  if (!post) return null;
  const dark = theme === 'dark';
  const button = `inline-flex h-9 items-center gap-1.5 rounded-md px-3 text-sm font-medium focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-500 ${
    dark ? 'bg-white/10 text-white hover:bg-white/20' : 'border border-slate-300 bg-white text-slate-700 shadow-sm hover:bg-slate-50'
  }`;
  return (
    <section aria-roledescription="carousel" aria-label="Slideshow" className="flex flex-col gap-4" data-testid="wall-slideshow">
      <Slide key={post.key} post={post} theme={theme} displayText={displayText} now={now} fullscreen={fullscreen} embedded={!controls} onBroken={onBroken} />
      <div className="flex flex-wrap items-center justify-between gap-3">
        {controls ? (
          <div className="flex items-center gap-2">
            <button type="button" className={button} onClick={previous} aria-label="Previous post" disabled={posts.length < 2}>
              <IconChevronLeft />
              Prev
            </button>
            <button type="button" className={button} onClick={() => setPaused((p) => !p)} aria-pressed={paused} aria-label={paused ? 'Play slideshow' : 'Pause slideshow'}>
              {paused ? <IconPlay size={14} /> : <IconPause size={14} />}
              {paused ? 'Play' : 'Pause'}
            </button>
            <button type="button" className={button} onClick={next} aria-label="Next post" disabled={posts.length < 2}>
              Next
              <IconChevronRight />
            </button>
          </div>
        ) : (
          <span />
        )}
        <p className={`text-sm tabular-nums ${dark ? 'text-slate-400' : 'text-slate-500'}`} aria-live="polite" data-testid="slide-position">
          {index + 1} / {posts.length}
        </p>
      </div>
      {!paused && posts.length > 1 ? <Progress key={`${post.key}-${step}`} dark={dark} /> : null}
    </section>
  );
}

function Slide({
  post,
  theme,
  displayText,
  now,
  fullscreen,
  embedded,
  onBroken,
}: {
  post: WallPost;
  theme: WallTheme;
  displayText: boolean;
  now: number;
  fullscreen: boolean;
  embedded: boolean;
  onBroken: (key: string) => void;
}) {
  const ref = useEnterAnimation<HTMLElement>(true);
  const dark = theme === 'dark';
  const who = authorLabel(post);
  const text = post.text.trim();
  const title = cardTitle(post);
  // The slide fills what the page leaves it: the whole screen in full screen or in an embed's frame.
  const height = fullscreen ? 'h-[calc(100vh-9rem)]' : embedded ? 'h-[calc(100vh-7rem)]' : 'h-[clamp(18rem,calc(100vh-26rem),40rem)]';
  return (
    <article
      ref={ref}
      aria-roledescription="slide"
      aria-label={`Post by ${who}`}
      data-post-key={post.key}
      className={`flex flex-col overflow-hidden rounded-2xl ring-1 lg:flex-row ${dark ? 'bg-slate-900 text-slate-100 ring-white/10' : 'bg-white text-slate-900 ring-slate-200'}`}
    >
      <div className={`relative min-h-64 flex-1 ${height} ${dark ? 'bg-black' : 'bg-slate-100'}`}>
        <WallMedia post={post} fit="contain" onBroken={onBroken} />
        <div className="absolute left-3 top-3">
          <PlatformChip platform={post.platform} />
        </div>
        {!displayText ? (
          <div className="absolute inset-x-0 bottom-0 flex items-center gap-3 bg-gradient-to-t from-black/80 to-transparent px-5 pb-4 pt-12 text-white">
            <Avatar post={post} size="h-9 w-9" />
            <div className="min-w-0 leading-tight">
              <p className="truncate font-semibold">{post.author.name || who}</p>
              <p className="truncate text-sm text-white/70">{who}</p>
            </div>
          </div>
        ) : null}
      </div>
      {displayText ? (
        <div className={`flex w-full shrink-0 flex-col gap-4 p-6 lg:w-96 ${fullscreen || embedded ? '' : 'lg:max-h-[clamp(18rem,calc(100vh-26rem),40rem)]'}`}>
          <div className="flex items-center gap-3">
            <Avatar post={post} size="h-11 w-11" />
            <div className="min-w-0 flex-1 leading-tight">
              <p className="truncate font-semibold">{post.author.name || who}</p>
              <p className={`truncate text-sm ${dark ? 'text-slate-400' : 'text-slate-500'}`}>{who}</p>
            </div>
            <PostTime post={post} now={now} theme={theme} />
          </div>
          {title ? <h3 className="break-words text-xl font-semibold leading-snug">{title}</h3> : null}
          <p className={`min-h-0 flex-1 overflow-y-auto whitespace-pre-line break-words text-lg leading-relaxed ${text ? '' : dark ? 'italic text-slate-500' : 'italic text-slate-400'}`}>
            {text || NO_CAPTION}
          </p>
          <Stats post={post} theme={theme} />
        </div>
      ) : null}
    </article>
  );
}

/** A thin bar filling over the 6 s a slide stays. */
function Progress({ dark }: { dark: boolean }) {
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const el = ref.current;
    if (!el || typeof el.animate !== 'function') return;
    const a = el.animate([{ transform: 'scaleX(0)' }, { transform: 'scaleX(1)' }], { duration: SLIDE_MS, easing: 'linear', fill: 'forwards' });
    return () => a.cancel();
  }, []);
  return (
    <div className={`h-1 overflow-hidden rounded-full ${dark ? 'bg-white/10' : 'bg-slate-200'}`} aria-hidden="true">
      <div ref={ref} className="h-full origin-left scale-x-0 bg-brand-500" />
    </div>
  );
}
