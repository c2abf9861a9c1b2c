// Written by `make train-sentiment` (scripts/train_sentiment.py); do not edit.
/// The model's version: stored posts scored by another version are scored again.
pub const VERSION: &str = "lr-9ed86869c242";
pub const HASH_BITS: u32 = 18;
pub const DENSE_SCALE: f32 = 1.0;
/// P(positive) - P(negative) where the strong buckets begin (the spec's -0.7 and 0.8 edges).
pub const STRONG: [f64; 2] = [-0.6255, 0.68];
/// Validation (dev.tsv, 2,000 tweets, the most probable class): recall of negative, neutral and
/// positive, and their mean.
pub const DEV_RECALLS: [f64; 3] = [0.6307692307692307, 0.5726872246696035, 0.5633802816901409];
pub const DEV_MACRO_RECALL: f64 = 0.5889455790429917;
/// Training tweets the model was fitted on.
pub const TRAIN_ROWS: usize = 48313;
