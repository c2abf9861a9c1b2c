//! A deterministic generator of realistic social traffic about one coffee brand, for the demo
//! tracker and for benchmarks. The same seed always gives the same posts.
//!
//! What makes it look real: all eight platforms in a plausible mix, authors drawn from a pool
//! with a heavy-tailed activity (so influencers post many times), log-normal follower and
//! engagement counts, several languages, positive, neutral and negative sentences, hashtags
//! and mentions, bursts around events, retweets and replies, media, web titles and URLs,
//! locations as coordinates or as profile text, and the client a tweet was sent from.

mod content;
pub mod media;
mod timeline;

use hark_core::criteria::{AccountLists, TrackerCriteria};
use hark_core::post::{Author, Media, MediaKind};
use hark_core::search::TrackerSearch;
use hark_core::{Millis, Platform, PlatformSet, Post};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

use content::{Lang, Locale, Tone, BURSTS, LOCALES};
pub use timeline::mix64;
use timeline::{base_rate, burst_rate, Timeline};

pub const DEMO_TITLE: &str = "Kestrel Coffee";

/// The demo tracker's criteria: the brand in any form, bird-watching posts excluded, and
/// subtrackers for the drinks and the app people talk about.
pub fn demo_criteria() -> TrackerCriteria {
    let strings = |xs: &[&str]| xs.iter().map(|s| s.to_string()).collect::<Vec<_>>();
    TrackerCriteria {
        search: TrackerSearch {
            include: vec![strings(&["kestrel coffee", "kestrelcoffee", "kestrel café", "#KestrelAppDown", "#KestrelPrices"])],
            exclude: strings(&["birdwatching", "kestrel falcon"]),
        },
        platforms: PlatformSet::all(),
        exclude_retweets: false,
        verified_users: false,
        verified_tiktok_users: false,
        language: None,
        country_locations: Vec::new(),
        volume_limit: None,
        usernames: AccountLists::default(),
        ignore: AccountLists::default(),
        subtrackers: strings(&["oat latte", "cold brew", "pumpkin spice", "app", "prices"]),
        highlights: strings(&["kestrel coffee"]),
        sentiment_keywords: Default::default(),
    }
}

/// Share of posts per platform, in percent.
const PLATFORM_MIX: [(Platform, u32); 8] = [
    (Platform::Twitter, 40),
    (Platform::Instagram, 17),
    (Platform::Facebook, 10),
    (Platform::Tiktok, 9),
    (Platform::Youtube, 5),
    (Platform::News, 7),
    (Platform::Blogs, 5),
    (Platform::Forums, 7),
];

/// Authors per platform in the pool.
fn pool_size(p: Platform) -> usize {
    match p {
        Platform::Twitter => 6000,
        Platform::Instagram => 3000,
        Platform::Facebook => 1500,
        Platform::Tiktok => 2000,
        Platform::Youtube => 300,
        Platform::News => 60,
        Platform::Blogs => 300,
        Platform::Forums => 2000,
        // Not in the sample mix.
        Platform::Bluesky | Platform::Mastodon => 0,
    }
}

struct DemoAuthor {
    author: Author,
    locale: usize,
    place: usize,
    /// Posts with coordinates now and then.
    geotags: bool,
    org: bool,
}

pub struct DemoGenerator {
    rng: StdRng,
    salt: u64,
    seq: u64,
    pools: Vec<Vec<DemoAuthor>>,
    locale_weights: Vec<u32>,
}

const B64: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
const TWITTER_EPOCH: Millis = 1_288_834_974_657;

fn push_u64(s: &mut String, mut v: u64) {
    let mut buf = [0u8; 20];
    let mut i = buf.len();
    loop {
        i -= 1;
        buf[i] = b'0' + (v % 10) as u8;
        v /= 10;
        if v == 0 {
            break;
        }
    }
    // The buffer holds ASCII digits only.
    s.push_str(std::str::from_utf8(&buf[i..]).unwrap_or("0"));
}

fn push_b64(s: &mut String, mut v: u64, len: usize) {
    for _ in 0..len {
        s.push(B64[(v & 63) as usize] as char);
        v = (v >> 6) | (v << 58);
    }
}

fn push_hex(s: &mut String, v: u64) {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    for i in (0..16).rev() {
        s.push(HEX[((v >> (i * 4)) & 15) as usize] as char);
    }
}

/// A bijection on the low 50 bits (so distinct sequence numbers give distinct ids).
fn mix50(v: u64) -> u64 {
    const M: u64 = (1 << 50) - 1;
    let mut x = v & M;
    x = x.wrapping_mul(0x9E37_79B9_7F4A_7C15 | 1) & M;
    x ^= x >> 25;
    x = x.wrapping_mul(0xBF58_476D_1CE4_E5B9 | 1) & M;
    x ^ (x >> 23)
}

fn slug_into(s: &mut String, title: &str) {
    let mut dash = true;
    for c in title.chars().take(60) {
        if c.is_ascii_alphanumeric() {
            s.push(c.to_ascii_lowercase());
            dash = false;
        } else if !dash {
            s.push('-');
            dash = true;
        }
    }
    while s.ends_with('-') {
        s.pop();
    }
}

impl DemoGenerator {
    pub fn new(seed: u64) -> Self {
        let mut rng = StdRng::seed_from_u64(seed);
        let salt = mix64(seed ^ 0x4B45_5354_5245_4C21);
        let locale_weights = LOCALES.iter().map(|l| l.weight).collect();
        let mut g = Self { rng: StdRng::seed_from_u64(0), salt, seq: 0, pools: Vec::new(), locale_weights };
        for p in Platform::ALL {
            let pool = (0..pool_size(p)).map(|i| g.make_author(&mut rng, p, i)).collect();
            g.pools.push(pool);
        }
        g.rng = rng;
        g
    }

    fn weighted(rng: &mut StdRng, weights: &[u32]) -> usize {
        let total: u32 = weights.iter().sum();
        let mut r = rng.gen_range(0..total.max(1));
        for (i, w) in weights.iter().enumerate() {
            if r < *w {
                return i;
            }
            r -= w;
        }
        0
    }

    /// A log-normal draw with the given median.
    fn lognormal(rng: &mut StdRng, median: f64, sigma: f64) -> f64 {
        let u1: f64 = rng.gen::<f64>().max(1e-12);
        let u2: f64 = rng.gen();
        let z = (-2.0 * u1.ln()).sqrt() * (std::f64::consts::TAU * u2).cos();
        median * (sigma * z).exp()
    }

    fn make_author(&self, rng: &mut StdRng, p: Platform, index: usize) -> DemoAuthor {
        let locale = Self::weighted(rng, &self.locale_weights);
        let loc = &LOCALES[locale];
        let place = rng.gen_range(0..loc.places.len());
        // The first accounts of each pool are organisations; the pool's head posts most.
        let org = p.is_web() && p != Platform::Forums || index < 6 || rng.gen_bool(0.03);
        let mut a = Author::default();
        let mut id = String::with_capacity(20);
        match p {
            Platform::Twitter | Platform::Tiktok => push_u64(&mut id, rng.gen_range(10_000_000..1_700_000_000_000_000_000)),
            Platform::Youtube => {
                id.push_str("UC");
                push_b64(&mut id, rng.gen(), 22);
            }
            _ => push_u64(&mut id, rng.gen_range(100_000_000_000..999_999_999_999_999)),
        }
        a.id = id;
        if p == Platform::News {
            let o = &content::NEWS_OUTLETS[index % content::NEWS_OUTLETS.len()];
            a.name = o.name.to_string();
            a.username = o.domain.to_string();
            a.followers = Some(Self::lognormal(rng, 400_000.0, 1.0) as i64);
            a.verified = true;
            a.bio = Some(format!("News from {}", o.name));
        } else if org && index < content::ORGS.len() {
            let o = &content::ORGS[index];
            a.name = o.name.to_string();
            a.username = o.username.to_string();
            a.followers = Some(Self::lognormal(rng, 150_000.0, 0.8) as i64);
            a.verified = true;
            a.bio = Some(o.bio.to_string());
            a.location = (index % 2 == 0).then(|| "Seattle, WA".to_string());
        } else {
            let female = rng.gen_bool(0.52);
            let first = if female { loc.female } else { loc.male };
            let first = first[rng.gen_range(0..first.len())];
            let last = loc.surnames[rng.gen_range(0..loc.surnames.len())];
            let mut name = String::with_capacity(first.len() + last.len() + 1);
            name.push_str(first);
            name.push(' ');
            name.push_str(last);
            let mut username = String::with_capacity(24);
            for c in first.chars().chain(last.chars().take(rng.gen_range(1..8))) {
                if c.is_ascii_alphanumeric() {
                    username.push(c.to_ascii_lowercase());
                }
            }
            if username.is_empty() {
                username.push_str("user");
            }
            match rng.gen_range(0..4) {
                0 => {}
                1 => username.push('_'),
                _ => push_u64(&mut username, rng.gen_range(1..9999)),
            }
            push_u64(&mut username, index as u64 % 97);
            // A few influencers, many ordinary accounts.
            let followers = if rng.gen_bool(0.03) {
                Self::lognormal(rng, 60_000.0, 1.1)
            } else {
                Self::lognormal(rng, 350.0, 1.5)
            };
            a.followers = Some(followers as i64 + 1);
            a.verified = followers > 50_000.0 && rng.gen_bool(0.6) || rng.gen_bool(0.01);
            a.bio = Some(["Coffee lover.", "Runner, reader, latte drinker.", "Dog mom ☕", "Designer. Opinions my own.", "Nurse | coffee | travel", ""][rng.gen_range(0..6)].to_string())
                .filter(|b| !b.is_empty());
            a.name = name;
            a.username = username;
            if rng.gen_bool(0.6) {
                let profiles = loc.places[place].profile;
                a.location = Some(profiles[rng.gen_range(0..profiles.len())].to_string());
            } else if rng.gen_bool(0.2) {
                a.location = Some(["Earth 🌍", "somewhere over the rainbow", "she/her", "localhost"][rng.gen_range(0..4)].to_string());
            }
        }
        // Served by Hark itself (see `media`), so the demo's pictures show with no network.
        let mut avatar = String::with_capacity(40);
        avatar.push_str(media::PREFIX);
        avatar.push_str("avatar/");
        push_b64(&mut avatar, rng.gen(), 16);
        avatar.push_str(".svg");
        a.avatar_url = Some(avatar);
        DemoAuthor { author: a, locale, place, geotags: rng.gen_bool(0.25), org }
    }

    fn pick_platform(&mut self) -> Platform {
        let mut r = self.rng.gen_range(0..100u32);
        for (p, w) in PLATFORM_MIX {
            if r < w {
                return p;
            }
            r -= w;
        }
        Platform::Twitter
    }

    /// An author index with a heavy-tailed activity: the head of the pool posts far more.
    fn pick_author(&mut self, p: Platform) -> usize {
        let n = self.pools[p as usize].len();
        let u: f64 = self.rng.gen();
        ((n as f64) * u.powf(2.6)) as usize % n
    }

    /// The next post at `created_at`.
    pub fn post_at(&mut self, created_at: Millis) -> Post {
        let base = base_rate(created_at);
        let (burst, kind) = burst_rate(self.salt, created_at, BURSTS.len());
        let burst_kind = kind.filter(|_| self.rng.gen::<f64>() < burst / (base + burst));
        self.make_post(created_at, burst_kind)
    }

    /// `count` posts spread over `[start, end)`, in time order, following the daily and
    /// weekly rhythm and the bursts.
    pub fn generate(&mut self, start: Millis, end: Millis, count: usize) -> impl Iterator<Item = Post> + '_ {
        let mut timeline = Timeline::new(self.salt, BURSTS.len(), start, end, count);
        std::iter::from_fn(move || {
            let u = self.rng.gen::<f64>();
            let t = timeline.next(u)?;
            Some(self.post_at(t))
        })
    }

    fn next_id(&mut self, p: Platform, t: Millis) -> String {
        let seq = self.seq;
        self.seq += 1;
        let mut id = String::with_capacity(24);
        match p {
            Platform::Twitter => {
                let v = (((t - TWITTER_EPOCH).max(0) as u64) << 22) | (seq & 0x3F_FFFF);
                push_u64(&mut id, v);
            }
            Platform::Instagram => push_u64(&mut id, 17_841_400_000_000_000 + mix50(seq ^ self.salt)),
            Platform::Youtube => push_b64(&mut id, mix64(seq ^ self.salt), 11),
            Platform::Facebook => {
                push_u64(&mut id, 100_000_000_000_000 + mix50(seq ^ (self.salt >> 7)));
            }
            Platform::Tiktok => {
                let secs = (t.max(0) / 1000) as u64;
                // Distinct in the low 32 bits for 2^32 consecutive posts.
                let low = (seq as u32 ^ self.salt as u32) as u64;
                push_u64(&mut id, (secs << 32) | low);
            }
            Platform::News | Platform::Blogs | Platform::Forums | Platform::Bluesky | Platform::Mastodon => {
                push_hex(&mut id, mix64(seq ^ self.salt ^ p as u64))
            }
        }
        id
    }

    fn tone(&mut self, burst: Option<usize>) -> Tone {
        if let Some(b) = burst {
            return BURSTS[b].tone;
        }
        match self.rng.gen_range(0..100) {
            0..=41 => Tone::Positive,
            42..=79 => Tone::Neutral,
            _ => Tone::Negative,
        }
    }

    /// Fills a template into `out`, collapsing the spaces left by empty slots.
    fn fill(&mut self, out: &mut String, template: &str, tone: Tone, lang: &Lang, p: Platform, city: &str) {
        let mut rest = template;
        while let Some(open) = rest.find('{') {
            self.push_text(out, &rest[..open]);
            let slot = rest.as_bytes().get(open + 1).copied().unwrap_or(b'}');
            rest = rest.get(open + 3..).unwrap_or("");
            match slot {
                b'b' => {
                    let forms = content::BRAND_FORMS;
                    out.push_str(forms[self.rng.gen_range(0..forms.len())]);
                }
                b'p' => out.push_str(content::PRODUCTS[self.rng.gen_range(0..content::PRODUCTS.len())]),
                b'c' => out.push_str(city),
                b'm' => {
                    let pool = &self.pools[p as usize];
                    let other = &pool[self.rng.gen_range(0..pool.len())].author.username;
                    out.push('@');
                    out.push_str(other);
                }
                b't' => {
                    let n = self.rng.gen_range(0..3);
                    for i in 0..n {
                        if i > 0 {
                            out.push(' ');
                        }
                        out.push_str(lang.hashtags[self.rng.gen_range(0..lang.hashtags.len())]);
                    }
                }
                b'e' => {
                    let set = match tone {
                        Tone::Positive => content::EMOJI_POSITIVE,
                        Tone::Neutral => content::EMOJI_NEUTRAL,
                        Tone::Negative => content::EMOJI_NEGATIVE,
                    };
                    out.push_str(set[self.rng.gen_range(0..set.len())]);
                }
                b'l' => {
                    if p == Platform::Twitter {
                        out.push_str("https://t.co/");
                        push_b64(out, self.rng.gen(), 10);
                    } else {
                        out.push_str(["https://kestrel.coffee/menu", "https://kestrel.coffee/rewards", "https://www.kestrel.coffee/stores"][self.rng.gen_range(0..3)]);
                    }
                }
                _ => {}
            }
        }
        self.push_text(out, rest);
        let trimmed = out.trim_end().len();
        out.truncate(trimmed);
    }

    fn push_text(&mut self, out: &mut String, text: &str) {
        let text = if out.ends_with(' ') || out.is_empty() { text.trim_start_matches(' ') } else { text };
        out.push_str(text);
    }

    fn sentence(&mut self, out: &mut String, tone: Tone, burst: Option<usize>, locale: &Locale, p: Platform, city: &str) {
        let lang = locale.lang;
        let off_topic = burst.is_none() && self.rng.gen_bool(0.2);
        let list: &[&str] = if let Some(b) = burst {
            BURSTS[b].texts
        } else if off_topic {
            lang.off_topic
        } else {
            match tone {
                Tone::Positive => lang.positive,
                Tone::Neutral => lang.neutral,
                Tone::Negative => lang.negative,
            }
        };
        let template = list[self.rng.gen_range(0..list.len())];
        let lang = if burst.is_some() { &content::EN } else { lang };
        self.fill(out, template, tone, lang, p, city);
    }

    fn titled(&mut self, list: &[(&'static str, Tone)], city: &str, p: Platform) -> (String, Tone) {
        let (template, tone) = list[self.rng.gen_range(0..list.len())];
        let mut s = String::with_capacity(80);
        self.fill(&mut s, template, tone, &content::EN, p, city);
        (s, tone)
    }

    fn make_post(&mut self, t: Millis, burst: Option<usize>) -> Post {
        let p = self.pick_platform();
        let ai = self.pick_author(p);
        let (locale_i, place_i, geotags, org) = {
            let a = &self.pools[p as usize][ai];
            (a.locale, a.place, a.geotags, a.org)
        };
        let locale = &LOCALES[locale_i];
        let place = &locale.places[place_i];
        let id = self.next_id(p, t);
        let mut post = Post::new(p, id, String::new(), t);
        post.author = self.pools[p as usize][ai].author.clone();
        let followers = post.author.followers.unwrap_or(0).max(1) as f64;
        let tone = self.tone(burst);
        let mut text = String::with_capacity(200);
        let rng_f = |g: &mut Self| g.rng.gen::<f64>();

        match p {
            Platform::Twitter => {
                let kind = rng_f(self);
                if kind < 0.16 && !org {
                    let orig = {
                        let pool = &self.pools[p as usize];
                        pool[(pool.len() as f64 * self.rng.gen::<f64>().powf(3.0)) as usize % pool.len()].author.username.clone()
                    };
                    text.push_str("RT @");
                    text.push_str(&orig);
                    text.push_str(": ");
                    post.flags.is_retweet = true;
                    post.flags.retweet_of = Some(orig);
                } else if kind < 0.28 {
                    let pool = &self.pools[p as usize];
                    let to = &pool[self.rng.gen_range(0..pool.len())].author.username;
                    text.push('@');
                    text.push_str(to);
                    text.push(' ');
                    post.flags.is_reply = true;
                }
                self.sentence(&mut text, tone, burst, locale, p, place.city);
                if (0.28..0.33).contains(&kind) {
                    let mut q = String::with_capacity(120);
                    self.sentence(&mut q, Tone::Neutral, None, locale, p, place.city);
                    post.flags.is_quote = true;
                    post.flags.quoted_text = Some(q);
                    let mut u = String::from("https://x.com/kestrelcoffee/status/");
                    push_u64(&mut u, (((t - TWITTER_EPOCH - 3_600_000).max(0) as u64) << 22) | (self.rng.gen::<u64>() & 0x3F_FFFF));
                    post.flags.quoted_url = Some(u);
                }
                post.lang = Some(locale.lang.code.to_string());
                let sources = content::TWITTER_SOURCES;
                let weights: [u32; 7] = [44, 30, 18, 3, 2, 2, 1];
                post.source = Some(sources[Self::weighted(&mut self.rng, &weights)].0.to_string());
                if geotags && rng_f(self) < 0.3 {
                    post.coordinates = Some(self.jitter(place.lat, place.lon));
                }
                let impressions = (followers * Self::lognormal(&mut self.rng, 0.4, 1.0) + Self::lognormal(&mut self.rng, 40.0, 1.0)) as i64;
                let c = &mut post.counts;
                c.impressions = Some(impressions);
                if post.flags.is_retweet {
                    c.likes = Some(0);
                    c.retweets = Some(0);
                    c.replies = Some(0);
                    c.quotes = Some(0);
                } else {
                    let likes = (impressions as f64 * Self::lognormal(&mut self.rng, 0.012, 0.9)) as i64;
                    c.likes = Some(likes);
                    c.retweets = Some((likes as f64 * Self::lognormal(&mut self.rng, 0.15, 0.8)) as i64);
                    c.replies = Some((likes as f64 * Self::lognormal(&mut self.rng, 0.08, 0.9)) as i64);
                    c.quotes = Some((likes as f64 * Self::lognormal(&mut self.rng, 0.02, 0.9)) as i64);
                    c.saves = Some((likes as f64 * Self::lognormal(&mut self.rng, 0.05, 0.9)) as i64);
                }
                let r = rng_f(self);
                if r < 0.24 {
                    post.media.push(self.media(MediaKind::Photo, None));
                } else if r < 0.32 {
                    let m = self.media(MediaKind::Video, Some(2_176_000));
                    post.media.push(m);
                } else if r < 0.35 {
                    post.media.push(self.media(MediaKind::Gif, Some(0)));
                }
                let mut url = String::with_capacity(64);
                url.push_str("https://x.com/");
                url.push_str(&post.author.username);
                url.push_str("/status/");
                url.push_str(&post.id);
                post.url = Some(url);
            }
            Platform::Instagram => {
                self.sentence(&mut text, tone, burst, locale, p, place.city);
                text.push_str("\n\n");
                text.push_str(content::IG_TAIL[self.rng.gen_range(0..content::IG_TAIL.len())]);
                let story = rng_f(self) < 0.06;
                let reach = (followers * Self::lognormal(&mut self.rng, 0.35, 0.6)) as i64 + 1;
                let c = &mut post.counts;
                c.reach = Some(reach);
                c.impressions = Some((reach as f64 * 1.3) as i64);
                if story {
                    post.flags.is_story = true;
                    c.exits = Some((reach as f64 * 0.05) as i64);
                    c.taps_forward = Some((reach as f64 * 0.4) as i64);
                    c.taps_back = Some((reach as f64 * 0.03) as i64);
                    c.replies = Some((reach as f64 * 0.004) as i64);
                    post.media.push(self.media(MediaKind::Video, Some(1_200_000)));
                } else {
                    let likes = (reach as f64 * Self::lognormal(&mut self.rng, 0.06, 0.8)) as i64;
                    c.likes = Some(likes);
                    c.comments = Some((likes as f64 * Self::lognormal(&mut self.rng, 0.03, 0.8)) as i64);
                    c.saves = Some((likes as f64 * Self::lognormal(&mut self.rng, 0.05, 0.8)) as i64);
                    let r = rng_f(self);
                    if r < 0.55 {
                        post.media.push(self.media(MediaKind::Photo, None));
                    } else if r < 0.8 {
                        // A carousel: one entry per slide.
                        for _ in 0..self.rng.gen_range(2..6) {
                            post.media.push(self.media(MediaKind::Carousel, None));
                        }
                    } else {
                        post.media.push(self.media(MediaKind::Reel, Some(1_800_000)));
                        c.views = Some((reach as f64 * Self::lognormal(&mut self.rng, 1.5, 0.8)) as i64);
                    }
                }
                if geotags && rng_f(self) < 0.4 {
                    post.coordinates = Some(self.jitter(place.lat, place.lon));
                }
                let mut url = String::with_capacity(64);
                if story {
                    url.push_str("https://www.instagram.com/stories/");
                    url.push_str(&post.author.username);
                    url.push('/');
                    url.push_str(&post.id);
                    url.push('/');
                } else {
                    url.push_str("https://www.instagram.com/p/");
                    push_b64(&mut url, mix64(self.seq ^ self.salt ^ 0x1), 11);
                    url.push('/');
                }
                post.url = Some(url);
            }
            Platform::Youtube => {
                let (title, t_tone) = self.titled(content::YOUTUBE_TITLES, place.city, p);
                self.sentence(&mut text, t_tone, burst, &LOCALES[0], p, place.city);
                text.push_str(" Subscribe for more coffee reviews!");
                post.title = Some(title);
                let views = (followers * Self::lognormal(&mut self.rng, 0.3, 1.3)) as i64 + 10;
                let likes = (views as f64 * Self::lognormal(&mut self.rng, 0.035, 0.6)) as i64;
                let c = &mut post.counts;
                c.views = Some(views);
                c.likes = Some(likes);
                c.dislikes = Some((likes as f64 * Self::lognormal(&mut self.rng, 0.04, 0.7)) as i64);
                c.comments = Some((likes as f64 * Self::lognormal(&mut self.rng, 0.08, 0.7)) as i64);
                let mut thumb = format!("{}poster/", media::PREFIX);
                thumb.push_str(&post.id);
                thumb.push_str(".svg");
                let mut url = String::from("https://www.youtube.com/watch?v=");
                url.push_str(&post.id);
                post.media.push(Media { kind: MediaKind::Video, url: url.clone(), thumbnail_url: Some(thumb), bitrate: None });
                post.url = Some(url);
            }
            Platform::Facebook => {
                self.sentence(&mut text, tone, burst, locale, p, place.city);
                let reach = (followers * Self::lognormal(&mut self.rng, 0.15, 0.9)) as i64 + 1;
                let likes = (reach as f64 * Self::lognormal(&mut self.rng, 0.04, 0.8)) as i64;
                let c = &mut post.counts;
                c.reach = Some(reach);
                c.likes = Some(likes);
                c.comments = Some((likes as f64 * Self::lognormal(&mut self.rng, 0.1, 0.8)) as i64);
                c.shares = Some((likes as f64 * Self::lognormal(&mut self.rng, 0.06, 0.9)) as i64);
                c.clicks = Some((reach as f64 * Self::lognormal(&mut self.rng, 0.01, 0.8)) as i64);
                let r = rng_f(self);
                if r < 0.4 {
                    post.media.push(self.media(MediaKind::Photo, None));
                } else if r < 0.5 {
                    post.media.push(self.media(MediaKind::Video, Some(1_500_000)));
                }
                if geotags && rng_f(self) < 0.15 {
                    post.coordinates = Some(self.jitter(place.lat, place.lon));
                }
                let mut url = String::from("https://www.facebook.com/");
                url.push_str(&post.author.username);
                url.push_str("/posts/");
                url.push_str(&post.id);
                post.url = Some(url);
            }
            Platform::Tiktok => {
                self.sentence(&mut text, tone, burst, locale, p, place.city);
                text.push_str(" #fyp #coffeetok");
                let views = (followers * Self::lognormal(&mut self.rng, 1.0, 1.6)) as i64 + 50;
                let likes = (views as f64 * Self::lognormal(&mut self.rng, 0.06, 0.7)) as i64;
                let c = &mut post.counts;
                c.views = Some(views);
                c.likes = Some(likes);
                c.comments = Some((likes as f64 * Self::lognormal(&mut self.rng, 0.02, 0.8)) as i64);
                c.shares = Some((likes as f64 * Self::lognormal(&mut self.rng, 0.05, 0.9)) as i64);
                c.saves = Some((likes as f64 * Self::lognormal(&mut self.rng, 0.04, 0.9)) as i64);
                let m = self.media(MediaKind::Video, Some(1_100_000));
                post.media.push(m);
                let mut url = String::from("https://www.tiktok.com/@");
                url.push_str(&post.author.username);
                url.push_str("/video/");
                url.push_str(&post.id);
                post.url = Some(url);
            }
            Platform::News => {
                let (title, _) = self.titled(content::NEWS_TITLES, place.city, p);
                let lead = content::NEWS_LEADS[self.rng.gen_range(0..content::NEWS_LEADS.len())];
                self.fill(&mut text, lead, tone, &content::EN, p, place.city);
                let outlet = content::NEWS_OUTLETS.iter().find(|o| o.domain == post.author.username).unwrap_or(&content::NEWS_OUTLETS[0]);
                let mut url = String::from("https://www.");
                url.push_str(outlet.domain);
                url.push('/');
                url.push_str(outlet.section);
                url.push('/');
                slug_into(&mut url, &title);
                url.push('-');
                url.push_str(&post.id[..8]);
                post.title = Some(title);
                post.counts.comments = Some(Self::lognormal(&mut self.rng, 12.0, 1.3) as i64);
                post.counts.shares = Some(Self::lognormal(&mut self.rng, 80.0, 1.5) as i64);
                if rng_f(self) < 0.6 {
                    post.media.push(self.media(MediaKind::Photo, None));
                }
                post.url = Some(url);
            }
            Platform::Blogs => {
                let (title, t_tone) = self.titled(content::BLOG_TITLES, place.city, p);
                self.sentence(&mut text, t_tone, burst, &LOCALES[0], p, place.city);
                let host = content::BLOG_HOSTS[ai % content::BLOG_HOSTS.len()];
                let user = &post.author.username;
                let mut url = String::from("https://");
                match host {
                    "medium.com" => {
                        url.push_str("medium.com/@");
                        url.push_str(user);
                        url.push('/');
                    }
                    "substack.com" | "wordpress.com" | "blogspot.com" => {
                        url.push_str(user);
                        url.push('.');
                        url.push_str(host);
                        url.push_str(if host == "substack.com" { "/p/" } else { "/" });
                    }
                    _ => {
                        url.push_str(host);
                        url.push('/');
                    }
                }
                slug_into(&mut url, &title);
                post.title = Some(title);
                post.counts.comments = Some(Self::lognormal(&mut self.rng, 3.0, 1.2) as i64);
                post.counts.shares = Some(Self::lognormal(&mut self.rng, 10.0, 1.4) as i64);
                if rng_f(self) < 0.5 {
                    post.media.push(self.media(MediaKind::Photo, None));
                }
                post.url = Some(url);
            }
            Platform::Forums => {
                let (title, t_tone) = self.titled(content::FORUM_TITLES, place.city, p);
                self.sentence(&mut text, t_tone, burst, &LOCALES[0], p, place.city);
                let (domain, path) = content::FORUMS[self.rng.gen_range(0..content::FORUMS.len())];
                let mut url = String::from("https://www.");
                url.push_str(domain);
                url.push_str(path);
                url.push_str(&post.id[..7]);
                url.push('/');
                slug_into(&mut url, &title);
                url.push('/');
                post.title = Some(title);
                post.counts.comments = Some(Self::lognormal(&mut self.rng, 8.0, 1.2) as i64);
                post.counts.likes = Some(Self::lognormal(&mut self.rng, 15.0, 1.5) as i64);
                post.url = Some(url);
            }
            // Not in the sample mix (see PLATFORM_MIX); a plain sentence should one be asked for.
            Platform::Bluesky | Platform::Mastodon => {
                self.sentence(&mut text, tone, burst, &LOCALES[0], p, place.city);
            }
        }
        post.text = text;
        post
    }

    fn jitter(&mut self, lat: f64, lon: f64) -> (f64, f64) {
        (lat + self.rng.gen_range(-0.04..0.04), lon + self.rng.gen_range(-0.04..0.04))
    }

    /// A picture or clip served by Hark itself (see `media`): photos as pictures, videos as
    /// short clips with a poster (tall for reels).
    fn media(&mut self, kind: MediaKind, bitrate: Option<i64>) -> Media {
        let moving = matches!(kind, MediaKind::Video | MediaKind::Gif | MediaKind::Reel);
        let mut url = String::with_capacity(40);
        url.push_str(media::PREFIX);
        url.push_str(if moving { "clip/" } else { "photo/" });
        push_b64(&mut url, self.rng.gen(), 15);
        url.push_str(if moving { ".webm" } else { ".svg" });
        let thumbnail_url = moving.then(|| {
            let mut t = String::with_capacity(40);
            t.push_str(media::PREFIX);
            t.push_str(if kind == MediaKind::Reel { "tall/" } else { "poster/" });
            push_b64(&mut t, self.rng.gen(), 15);
            t.push_str(".svg");
            t
        });
        Media { kind, url, thumbnail_url, bitrate }
    }
}

#[cfg(test)]
mod tests;
