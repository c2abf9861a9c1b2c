// Written by `make train-sentiment` (scripts/train_sentiment.py); do not edit.
/// The model's version: stored posts scored by another version are scored again.
pub const VERSION: &str = "lr-098267d4489c";
pub const HASH_BITS: u32 = 18;
pub const DENSE_SCALE: f32 = 1.0;
/// P(positive) - P(negative) at the spec's bucket edges -0.7, -0.3, 0.4 and 0.8.
pub const THRESHOLDS: [f64; 4] = [-0.6363, -0.31, 0.16, 0.533];
/// Validation (dev.tsv, 2,000 tweets): recall of negative, neutral and positive, and their mean.
pub const DEV_RECALLS: [f64; 3] = [0.5907692307692308, 0.4845814977973568, 0.7122736418511066];
pub const DEV_MACRO_RECALL: f64 = 0.5958747901392315;
/// Training tweets the model was fitted on.
pub const TRAIN_ROWS: usize = 48313;
