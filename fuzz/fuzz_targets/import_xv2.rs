//! An X API v2 response or tweet (one NDJSON line of an import, or a stream line) mapped by
//! `xv2::posts_from_value`.
#![no_main]

use hark_core::Platform;
use hark_ingest::import::xv2;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(v) = serde_json::from_slice::<serde_json::Value>(data) else { return };
    for p in xv2::posts_from_value(v).iter().flatten() {
        assert_eq!(p.platform, Platform::Twitter);
        hark_fuzz::check_imported(p);
    }
});
