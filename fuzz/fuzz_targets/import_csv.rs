//! `hark import` of a CSV file through `CsvReader`. An input with a NUL byte is
//! `--map overrides NUL csv`; without one it is all CSV, read with the default mapping.
//! The first byte's low bit chooses whether a default platform (`--platform news`) is given.
#![no_main]

use std::io::Cursor;

use hark_core::Platform;
use hark_ingest::import::{parse_csv, CsvMapping};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let (mapping, csv) = match data.iter().position(|b| *b == 0) {
        Some(i) => {
            let Ok(m) = std::str::from_utf8(&data[..i]) else { return };
            let Ok(m) = CsvMapping::parse_overrides(m) else { return };
            (m, &data[i + 1..])
        }
        None => (CsvMapping::default(), data),
    };
    let mapping = if data.first().is_some_and(|b| b & 1 == 1) { mapping.with_platform(Platform::News) } else { mapping };
    let batch = parse_csv(Cursor::new(csv), &mapping);
    for p in &batch.posts {
        hark_fuzz::check_imported(p);
    }
});
