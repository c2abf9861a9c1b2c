import { describe, expect, it } from 'vitest';
import { layoutPanels } from './panels';

const titles = (ps: { title: string }[]) => ps.map((p) => p.title);

describe('layoutPanels', () => {
  it('shows each panel only for its platforms', () => {
    const twitter = titles(layoutPanels(['twt', 'ig'], null));
    expect(twitter).toContain('Top Devices and Apps');
    expect(twitter).toContain('Social Media Post Types');
    expect(twitter).toContain('Most Linked Websites');
    expect(twitter).not.toContain('Video Like/Dislike Ratio');
    expect(twitter).not.toContain('Top Websites That Mention This Term');

    const web = titles(layoutPanels(['news', 'blogs'], null));
    expect(web).toContain('Top Websites That Mention This Term');
    expect(web).not.toContain('Most Linked Websites');
    expect(web).not.toContain('Top Devices and Apps');

    const yt = titles(layoutPanels(['yt', 'ig'], null));
    expect(yt).toContain('Video Like/Dislike Ratio');
    expect(yt).toContain('Most Linked Websites');
  });

  it('uses 12 columns for a single platform, 6 for two chart columns and 4 for three', () => {
    expect(new Set(layoutPanels(['twt'], null).map((p) => p.width))).toEqual(new Set([12]));
    const two = layoutPanels(['twt', 'ig'], { order: [], columns: 2 });
    expect(two.find((p) => p.title === 'Top Posts')!.width).toBe(6);
    expect(two.find((p) => p.title === 'Related Topics')!.width).toBe(12);
    const three = layoutPanels(['twt', 'ig'], { order: [], columns: 3 });
    expect(three.find((p) => p.title === 'Top Posts')!.width).toBe(4);
  });

  it('follows the saved order and hide flags', () => {
    const ps = layoutPanels(['twt', 'ig'], {
      order: [
        { chart: 'demographics', hide: false },
        { chart: 'posts', hide: true },
        { chart: 'gone', hide: false },
      ],
      columns: 2,
    });
    expect(titles(ps).slice(0, 3)).toEqual(['Gender', 'Top Posts', 'Influential Users']);
    expect(ps[1].hidden).toBe(true);
    expect(ps[0].hidden).toBe(false);
  });
});
