//! X recent search answer: `twitter::posts_of` (X API v2 mapping).
#![no_main]

use hark_core::Platform;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(posts) = hark_collect::fuzzing::twitter(data) else { return };
    hark_fuzz::check_collected(&posts, &[Platform::Twitter]);
});
