//! Writes the learned sentiment model's features of labelled texts, for the trainer
//! (`scripts/train_sentiment.py`, run by `make train-sentiment`).
//!
//!   cargo run --release -p hark-enrich --example sentiment_features -- FILE.tsv > FILE.features
//!
//! Input: tab-separated `id`, `label`, `text` lines. Literal JSON escapes in the text (`\u2019`,
//! as some of the SemEval 2013 texts carry) are decoded first. Output, a line per input line:
//! `id label dense…(12 numbers) bucket:count…`.

use std::io::{BufWriter, Write};

use hark_enrich::sentiment::model::features;

fn decode_escapes(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find("\\u") {
        out.push_str(&rest[..at]);
        let hex = rest.get(at + 2..at + 6);
        match hex.and_then(|h| u32::from_str_radix(h, 16).ok()) {
            Some(code) => {
                // Surrogate halves cannot stand alone; they become U+FFFD.
                out.push(char::from_u32(code).unwrap_or('\u{FFFD}'));
                rest = &rest[at + 6..];
            }
            None => {
                out.push_str("\\u");
                rest = &rest[at + 2..];
            }
        }
    }
    out.push_str(rest);
    out
}

fn main() {
    let Some(path) = std::env::args().nth(1) else {
        eprintln!("usage: sentiment_features FILE.tsv");
        std::process::exit(2);
    };
    let data = match std::fs::read_to_string(&path) {
        Ok(d) => d,
        Err(e) => {
            eprintln!("cannot read {path}: {e}");
            std::process::exit(1);
        }
    };
    let mut out = BufWriter::new(std::io::stdout().lock());
    for (n, line) in data.lines().enumerate() {
        let mut parts = line.splitn(3, '\t');
        let (Some(id), Some(label), Some(text)) = (parts.next(), parts.next(), parts.next()) else {
            eprintln!("{path}:{}: expected id, label and text separated by tabs", n + 1);
            std::process::exit(1);
        };
        let f = features(&decode_escapes(text));
        let mut row = format!("{id} {label}");
        for x in f.dense {
            row.push_str(&format!(" {x}"));
        }
        let mut i = 0;
        while i < f.buckets.len() {
            let b = f.buckets[i];
            let count = f.buckets[i..].iter().take_while(|&&x| x == b).count();
            row.push_str(&format!(" {b}:{count}"));
            i += count;
        }
        writeln!(out, "{row}").expect("write to standard output");
    }
}
