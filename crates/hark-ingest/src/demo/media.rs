//! The demo's pictures, made from their names: the generator gives demo posts media addresses
//! under `/demo-media/` (photos, video posters, avatars, short clips) and the server answers
//! them from here, so a demo tracker shows a full media wall with no network. Every picture is
//! an SVG drawn from a hash of its name (same name, same picture); the clips are a few short
//! generated WebM loops shipped in the binary.

/// Where demo media are served.
pub const PREFIX: &str = "/demo-media/";

/// The short clips a demo video plays (generated abstract loops, a few seconds each).
const CLIPS: [&[u8]; 3] = [
    include_bytes!("clips/clip-0.webm"),
    include_bytes!("clips/clip-1.webm"),
    include_bytes!("clips/clip-2.webm"),
];

/// Colour schemes: background from, background to, accent, light.
const PALETTES: [[&str; 4]; 10] = [
    ["#3b1f14", "#a0522d", "#f4c28b", "#fff4e6"],
    ["#0f2a3d", "#1f6f8b", "#99d6ea", "#f0fbff"],
    ["#2d1b3d", "#8e3b6f", "#f7a8c4", "#fff0f6"],
    ["#123524", "#3e7c59", "#b7e4c7", "#f1fff6"],
    ["#40210f", "#c8742c", "#ffd59e", "#fff8ec"],
    ["#1b1d3a", "#4b4fa8", "#c3c6ff", "#f3f3ff"],
    ["#3a1212", "#b23a3a", "#ffb4a2", "#fff1ec"],
    ["#2b2b2b", "#6b5b4b", "#e9d8c4", "#fffaf3"],
    ["#0d3b3b", "#128c7e", "#a7f3d0", "#effffa"],
    ["#3d2a00", "#d49a00", "#ffe08a", "#fffbe8"],
];

/// A served demo file: its content type and bytes.
pub struct DemoFile {
    pub content_type: &'static str,
    pub body: Vec<u8>,
}

/// The file at a name after [`PREFIX`] (`photo/NAME.svg`, `poster/NAME.svg`, `tall/NAME.svg`,
/// `avatar/NAME.svg`, `clip/NAME.webm`), or `None`.
pub fn file(path: &str) -> Option<DemoFile> {
    let (kind, name) = path.split_once('/')?;
    let (stem, ext) = name.rsplit_once('.')?;
    if stem.is_empty() || stem.len() > 64 || !stem.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_') {
        return None;
    }
    let seed = hash(stem);
    let svg = |s: String| Some(DemoFile { content_type: "image/svg+xml", body: s.into_bytes() });
    match (kind, ext) {
        ("photo", "svg") => svg(picture(seed, 600, 600, false)),
        ("poster", "svg") => svg(picture(seed, 640, 360, true)),
        ("tall", "svg") => svg(picture(seed, 360, 640, true)),
        ("avatar", "svg") => svg(avatar(seed)),
        ("clip", "webm") => Some(DemoFile { content_type: "video/webm", body: CLIPS[(seed % CLIPS.len() as u64) as usize].to_vec() }),
        _ => None,
    }
}

/// FNV-1a, then a mix, so neighbouring names look unrelated.
fn hash(s: &str) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in s.bytes() {
        h ^= b as u64;
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    h ^= h >> 33;
    h = h.wrapping_mul(0xff51_afd7_ed55_8ccd);
    h ^ (h >> 33)
}

/// Successive small numbers from a seed.
struct Draw(u64);

impl Draw {
    fn next(&mut self, n: u64) -> u64 {
        self.0 = self.0.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
        (self.0 >> 33) % n.max(1)
    }
}

/// A picture: a gradient, soft light, and one of a few coffee-shop motifs.
fn picture(seed: u64, w: u32, h: u32, play: bool) -> String {
    let mut d = Draw(seed);
    let [dark, mid, accent, light] = PALETTES[d.next(PALETTES.len() as u64) as usize];
    let angle = d.next(360);
    let mut s = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 {w} {h}\" width=\"{w}\" height=\"{h}\">\
         <defs><linearGradient id=\"g\" gradientTransform=\"rotate({angle} .5 .5)\">\
         <stop offset=\"0\" stop-color=\"{dark}\"/><stop offset=\"1\" stop-color=\"{mid}\"/></linearGradient>\
         <radialGradient id=\"l\"><stop offset=\"0\" stop-color=\"{light}\" stop-opacity=\".55\"/>\
         <stop offset=\"1\" stop-color=\"{light}\" stop-opacity=\"0\"/></radialGradient></defs>\
         <rect width=\"{w}\" height=\"{h}\" fill=\"url(#g)\"/>"
    );
    // Out-of-focus lights.
    for _ in 0..(6 + d.next(6)) {
        let (x, y, r) = (d.next(w as u64), d.next(h as u64), 20 + d.next((w.min(h) / 5) as u64));
        s.push_str(&format!("<circle cx=\"{x}\" cy=\"{y}\" r=\"{r}\" fill=\"url(#l)\"/>"));
    }
    let (cx, cy, u) = (w as f64 / 2.0, h as f64 / 2.0, w.min(h) as f64 / 600.0);
    match d.next(4) {
        // A cup on its saucer, steam rising.
        0 => {
            s.push_str(&format!(
                "<g transform=\"translate({cx} {cy}) scale({u})\">\
                 <ellipse cx=\"0\" cy=\"120\" rx=\"190\" ry=\"34\" fill=\"{light}\" opacity=\".9\"/>\
                 <path d=\"M-130 -40 H130 L105 100 Q0 130 -105 100 Z\" fill=\"{light}\"/>\
                 <path d=\"M128 -10 q70 0 62 52 q-8 44 -78 48\" fill=\"none\" stroke=\"{light}\" stroke-width=\"18\"/>\
                 <ellipse cx=\"0\" cy=\"-40\" rx=\"130\" ry=\"26\" fill=\"{dark}\"/>\
                 <path d=\"M-40 -90 q-20 -40 0 -80 q20 -40 0 -80 M20 -90 q-20 -40 0 -80 q20 -40 0 -80\" fill=\"none\" \
                 stroke=\"{light}\" stroke-width=\"10\" stroke-linecap=\"round\" opacity=\".6\"/></g>"
            ));
        }
        // Latte art seen from above.
        1 => {
            s.push_str(&format!(
                "<g transform=\"translate({cx} {cy}) scale({u})\">\
                 <circle r=\"210\" fill=\"{light}\"/><circle r=\"172\" fill=\"{mid}\"/><circle r=\"160\" fill=\"{dark}\" opacity=\".35\"/>\
                 <path d=\"M0 110 C-150 10 -90 -110 0 -40 C90 -110 150 10 0 110 Z\" fill=\"{accent}\"/>\
                 <path d=\"M0 90 C-100 20 -60 -70 0 -20 C60 -70 100 20 0 90 Z\" fill=\"{light}\" opacity=\".8\"/></g>"
            ));
        }
        // Coffee beans.
        2 => {
            for _ in 0..(5 + d.next(5)) {
                let (x, y, rot) = (d.next(w as u64), d.next(h as u64), d.next(180));
                let r = (40.0 + d.next(30) as f64) * u;
                s.push_str(&format!(
                    "<g transform=\"translate({x} {y}) rotate({rot})\"><ellipse rx=\"{r}\" ry=\"{:.0}\" fill=\"{dark}\"/>\
                     <path d=\"M0 -{:.0} Q{:.0} 0 0 {:.0}\" fill=\"none\" stroke=\"{accent}\" stroke-width=\"{:.0}\"/></g>",
                    r * 0.68,
                    r * 0.6,
                    r * 0.25,
                    r * 0.6,
                    (r / 9.0).max(2.0)
                ));
            }
        }
        // Hills at dusk, a sun.
        _ => {
            let sun = (d.next(w as u64), h as f64 * 0.35);
            s.push_str(&format!("<circle cx=\"{}\" cy=\"{:.0}\" r=\"{:.0}\" fill=\"{accent}\"/>", sun.0, sun.1, 70.0 * u));
            for (i, op) in [(0, ".55"), (1, ".8"), (2, "1")] {
                let base = h as f64 * (0.62 + 0.12 * i as f64);
                let peak = base - (60.0 + d.next(80) as f64) * u;
                s.push_str(&format!(
                    "<path d=\"M0 {base:.0} Q{:.0} {peak:.0} {w} {base:.0} V{h} H0 Z\" fill=\"{dark}\" opacity=\"{op}\"/>",
                    d.next(w as u64)
                ));
            }
        }
    }
    if play {
        let r = 46.0 * u;
        s.push_str(&format!(
            "<circle cx=\"{cx}\" cy=\"{cy}\" r=\"{r:.0}\" fill=\"#000\" opacity=\".45\"/>\
             <path d=\"M{:.0} {:.0} L{:.0} {cy} L{:.0} {:.0} Z\" fill=\"#fff\"/>",
            cx - r * 0.3,
            cy - r * 0.45,
            cx + r * 0.5,
            cx - r * 0.3,
            cy + r * 0.45
        ));
    }
    s.push_str("</svg>");
    s
}

/// An avatar: a coloured disc with a simple figure.
fn avatar(seed: u64) -> String {
    let mut d = Draw(seed);
    let [dark, mid, accent, light] = PALETTES[d.next(PALETTES.len() as u64) as usize];
    let (bg, fg) = if d.next(2) == 0 { (mid, light) } else { (accent, dark) };
    let hair = [dark, mid, "#2b2b2b", "#6b4226"][d.next(4) as usize];
    format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 96 96\" width=\"96\" height=\"96\">\
         <rect width=\"96\" height=\"96\" fill=\"{bg}\"/>\
         <circle cx=\"48\" cy=\"112\" r=\"40\" fill=\"{fg}\"/>\
         <circle cx=\"48\" cy=\"42\" r=\"20\" fill=\"{fg}\"/>\
         <path d=\"M28 40 Q30 18 48 18 Q66 18 68 40 Q{} 28 28 40 Z\" fill=\"{hair}\"/></svg>",
        40 + d.next(20)
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_kind_is_served_and_the_same_name_gives_the_same_file() {
        for path in ["photo/Ab-_9.svg", "poster/x.svg", "tall/x.svg", "avatar/Q.svg", "clip/z.webm"] {
            let a = file(path).unwrap_or_else(|| panic!("{path}"));
            assert_eq!(a.body, file(path).unwrap().body);
            assert!(!a.body.is_empty());
        }
        assert_eq!(file("photo/a.svg").unwrap().content_type, "image/svg+xml");
        assert_eq!(file("clip/a.webm").unwrap().content_type, "video/webm");
        assert_ne!(file("photo/a.svg").unwrap().body, file("photo/b.svg").unwrap().body);
    }

    #[test]
    fn other_names_are_not_found() {
        for path in ["photo/a.png", "photo/.svg", "photo/../x.svg", "other/a.svg", "photo", "clip/a.svg", "photo/a b.svg"] {
            assert!(file(path).is_none(), "{path}");
        }
    }

    #[test]
    fn pictures_are_well_formed_svg() {
        for seed in 0..200 {
            for s in [picture(seed, 600, 600, false), picture(seed, 640, 360, true), avatar(seed)] {
                assert!(s.starts_with("<svg ") && s.ends_with("</svg>"));
                assert_eq!(s.matches("<g").count(), s.matches("</g>").count());
                assert!(!s.contains("NaN") && !s.contains("inf"));
            }
        }
    }
}
