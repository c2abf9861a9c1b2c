//! Mastodon tag timeline: `mastodon::Status` and `to_post`; the bytes as a `Link` header too (`link_param`).
#![no_main]

use hark_core::Platform;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(posts) = hark_collect::fuzzing::mastodon(data) else { return };
    hark_fuzz::check_collected(&posts, &[Platform::Mastodon]);
});
