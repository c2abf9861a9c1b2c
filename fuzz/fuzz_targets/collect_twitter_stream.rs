//! X filtered stream bytes: `twitter_stream::read_line` on each complete line.
#![no_main]

use hark_core::Platform;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let posts = hark_collect::fuzzing::twitter_stream(data);
    hark_fuzz::check_collected(&posts, &[Platform::Twitter]);
});
