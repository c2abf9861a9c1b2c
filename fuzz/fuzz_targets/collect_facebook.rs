//! Facebook page `posts` answer: `facebook::posts_of`, Graph API errors by `graph::graph_error`.
#![no_main]

use hark_core::Platform;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(posts) = hark_collect::fuzzing::facebook(data) else { return };
    hark_fuzz::check_collected(&posts, &[Platform::Facebook]);
});
