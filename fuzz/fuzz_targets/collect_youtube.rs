//! YouTube `search.list` and `videos.list` answers: `youtube::search_page`, `statistics_of`, `video_to_post`.
#![no_main]

use hark_core::Platform;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(posts) = hark_collect::fuzzing::youtube(data) else { return };
    hark_fuzz::check_collected(&posts, &[Platform::Youtube]);
});
