//! Bluesky Jetstream messages, one a line: `Bluesky::read_event`.
#![no_main]

use hark_core::Platform;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let posts = hark_collect::fuzzing::bluesky(data);
    hark_fuzz::check_collected(&posts, &[Platform::Bluesky]);
});
