//! `hark import` of an NDJSON file (Hark's post form or X API v2 payloads, one a line), read
//! through `NdjsonReader` as the CLI reads a file.
#![no_main]

use std::io::Cursor;

use hark_ingest::import::parse_ndjson;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let batch = parse_ndjson(Cursor::new(data));
    let lines = data.split(|b| *b == b'\n').count();
    assert!(batch.lines <= lines, "{} lines counted in {lines}", batch.lines);
    for e in &batch.errors {
        assert!(e.line >= 1 && e.line <= lines, "error on line {} of {lines}", e.line);
    }
    for p in &batch.posts {
        hark_fuzz::check_imported(p);
    }
});
