//! Algolia Hacker News search answer: `hackernews::SearchResponse` and `Hit::into_post`.
#![no_main]

use hark_core::Platform;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(posts) = hark_collect::fuzzing::hackernews(data) else { return };
    hark_fuzz::check_collected(&posts, &[Platform::Forums]);
});
