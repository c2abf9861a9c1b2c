//! A news feed (RSS, Atom, JSON Feed): `rss::posts_of` (feed-rs, then the item mapping).
#![no_main]

use hark_core::Platform;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(posts) = hark_collect::fuzzing::rss(data) else { return };
    hark_fuzz::check_collected(&posts, &[Platform::News]);
});
