// The media of one wall post: an image (falling back once to its thumbnail), a muted looping
// video, or a carousel that turns every 2.5 s. When every medium of the post has failed the
// post is reported broken: the wall then leaves it out, the queue shows a placeholder.
// Videos play and carousels turn only while on screen: a grid of 500 posts holds a hundred
// videos or more, and decoding them all at once (or re-rendering every carousel off screen)
// costs the frames the visible part needs.
import { useEffect, useRef, useState, type RefCallback } from 'react';
import type { WallMedia as Media, WallPost } from '../../api/queries/media-wall';
import { VIDEO_FALLBACK } from '../posts/format';
import { IconImageOff } from './wall-icons';
import { CAROUSEL_MS, imageSource, isCarousel, isVideo, nextImageStage, type ImageStage } from './wall-data';

export function WallMedia({
  post,
  fit = 'cover',
  onBroken,
  placeholder = false,
  autoplay = true,
}: {
  post: WallPost;
  fit?: 'cover' | 'contain';
  /** Every medium failed to load. */
  onBroken?: (key: string) => void;
  /** Show a placeholder (rather than nothing) once every medium has failed. */
  placeholder?: boolean;
  /** Carousels turn by themselves (off for a paused slideshow). */
  autoplay?: boolean;
}) {
  const media = post.media;
  const [onScreenRef, onScreen] = useOnScreen<HTMLDivElement>();
  const [failed, setFailed] = useState<ReadonlySet<number>>(() => new Set());
  const [index, setIndex] = useState(0);
  const carousel = isCarousel(post);
  const allFailed = media.length === 0 || failed.size >= media.length;

  const reported = useRef(false);
  useEffect(() => {
    if (allFailed && !reported.current) {
      reported.current = true;
      onBroken?.(post.key);
    }
  }, [allFailed, onBroken, post.key]);

  // The carousel turns to the next medium that has not failed.
  useEffect(() => {
    if (!carousel || !autoplay || !onScreen || allFailed) return;
    const id = setInterval(() => {
      setIndex((i) => {
        for (let step = 1; step <= media.length; step++) {
          const n = (i + step) % media.length;
          if (!failed.has(n)) return n;
        }
        return i;
      });
    }, CAROUSEL_MS);
    return () => clearInterval(id);
  }, [carousel, autoplay, onScreen, allFailed, media.length, failed]);

  if (allFailed) {
    return placeholder ? (
      <div className="flex h-full w-full flex-col items-center justify-center gap-1 bg-slate-100 text-xs text-slate-500">
        <IconImageOff size={22} />
        Image unavailable
      </div>
    ) : null;
  }
  const markFailed = (i: number) => setFailed((f) => new Set(f).add(i));
  const alt = `Media posted by ${post.author.name || post.author.username || 'a user'}`;
  if (!carousel) {
    return (
      <div ref={onScreenRef} className="h-full w-full">
        <MediaItem media={media[0]} fit={fit} alt={alt} playing={onScreen} onFailed={() => markFailed(0)} />
      </div>
    );
  }
  // Every medium stays loaded; the one shown fades in over the others.
  const shown = failed.has(index) ? media.findIndex((_, i) => !failed.has(i)) : index;
  return (
    <div ref={onScreenRef} className="relative h-full w-full" data-carousel data-index={shown}>
      {media.map((m, i) =>
        failed.has(i) ? null : (
          <div key={i} className={`absolute inset-0 transition-opacity duration-700 ${i === shown ? 'opacity-100' : 'opacity-0'}`} aria-hidden={i !== shown}>
            <MediaItem media={m} fit={fit} alt={`${alt} (${i + 1} of ${media.length})`} playing={onScreen && i === shown} onFailed={() => markFailed(i)} />
          </div>
        ),
      )}
      <div className="pointer-events-none absolute bottom-2 left-0 right-0 flex justify-center gap-1.5" aria-hidden="true">
        {media.map((_, i) =>
          failed.has(i) ? null : <span key={i} className={`h-1.5 w-1.5 rounded-full shadow ${i === shown ? 'bg-white' : 'bg-white/50'}`} />,
        )}
      </div>
    </div>
  );
}

/**
 * Whether an element is on screen, or near it: always true where the browser cannot tell (no
 * IntersectionObserver), so media then behave as they would without the check.
 */
function useOnScreen<T extends Element>(): [RefCallback<T>, boolean] {
  const observable = typeof IntersectionObserver !== 'undefined';
  const [node, setNode] = useState<T | null>(null);
  const [onScreen, setOnScreen] = useState(!observable);
  useEffect(() => {
    if (!node || !observable) return;
    const io = new IntersectionObserver((entries) => setOnScreen(entries.some((e) => e.isIntersecting)), { rootMargin: '200px' });
    io.observe(node);
    return () => io.disconnect();
  }, [node, observable]);
  return [setNode, onScreen];
}

function MediaItem({
  media,
  fit,
  alt,
  playing,
  onFailed,
}: {
  media: Media;
  fit: 'cover' | 'contain';
  alt: string;
  /** On screen and shown: a video plays. */
  playing: boolean;
  onFailed: () => void;
}) {
  const [stage, setStage] = useState<ImageStage>('main');
  const video = useRef<HTMLVideoElement | null>(null);
  useEffect(() => {
    const v = video.current;
    // Where on-screen checks exist (browsers), a video off screen is paused and plays again
    // when it comes back; elsewhere `autoPlay` alone decides.
    if (!v || typeof IntersectionObserver === 'undefined') return;
    if (playing) v.play().catch(() => undefined);
    else v.pause();
  }, [playing, stage]);
  const fitClass = fit === 'cover' ? 'object-cover' : 'object-contain';
  function fail() {
    const next = nextImageStage(stage, media);
    setStage(next);
    if (next === 'failed') onFailed();
  }
  if (stage === 'failed') return null;
  if (stage === 'main' && isVideo(media)) {
    return (
      <video
        ref={(el) => {
          // Browsers let a video play by itself only while muted: the property, not just the attribute.
          if (el) el.muted = true;
          video.current = el;
        }}
        src={media.url}
        poster={media.thumbnailUrl ?? undefined}
        muted
        autoPlay={playing}
        loop
        playsInline
        preload="metadata"
        onError={fail}
        aria-label={alt}
        className={`h-full w-full ${fitClass}`}
        data-testid="wall-video"
      >
        {VIDEO_FALLBACK}
      </video>
    );
  }
  const src = imageSource(stage, media);
  if (!src) return null;
  return <img src={src} alt={alt} loading="lazy" decoding="async" onError={fail} className={`h-full w-full ${fitClass}`} data-stage={stage} />;
}
