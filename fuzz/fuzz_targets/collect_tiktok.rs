//! TikTok research video query answer: `tiktok::videos_of`.
#![no_main]

use hark_core::Platform;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(posts) = hark_collect::fuzzing::tiktok(data) else { return };
    hark_fuzz::check_collected(&posts, &[Platform::Tiktok]);
});
