use super::*;

fn close(text: &str, expected: f64) {
    let got = score(text);
    assert!((got - expected).abs() < 0.002, "{text:?}: got {got}, expected {expected}");
}

#[test]
fn plain_sentences_follow_the_lexicon() {
    close("The book was good.", 0.4404);
    close("I love this!!", 0.6988);
    close("not good", -0.3412);
    assert_eq!(score(""), 0.0);
    assert_eq!(score("the cat sat on the mat"), 0.0);
}

#[test]
fn buckets_of_everyday_posts() {
    assert_eq!(analyze("Love love love it!!").bucket, Bucket::Positive);
    assert_eq!(analyze("I love this!!").bucket, Bucket::SlightPositive);
    assert_eq!(analyze("The book was good.").bucket, Bucket::SlightPositive);
    assert_eq!(analyze("not good").bucket, Bucket::SlightNegative);
    assert_eq!(analyze("This is the worst, most horrible service ever!!").bucket, Bucket::Negative);
    assert_eq!(analyze("Train leaves at 9.").bucket, Bucket::Neutral);
}

#[test]
fn kind_of_dampens() {
    // VADER's own example: the dampener takes "good" from 0.44 to 0.38, which the spec's
    // thresholds put just inside neutral.
    close("The book was kind of good.", 0.3832);
    assert!(score("The book was kind of good.") < score("The book was good."));
    assert!(score("kind of bad") > score("bad"));
}

#[test]
fn negation_in_a_three_word_window() {
    assert!(score("good") > 0.0);
    assert!(score("not good") < 0.0);
    assert!(score("isn't really good") < 0.0);
    assert!(score("don\u{2019}t like it") < 0.0, "typographic apostrophe negates too");
    assert!(score("never been this happy") > score("happy"), "never this = emphasis");
    close("Not bad at all", 0.431);
    assert!(score("no problems at all") > 0.0);
    assert!(score("without doubt the best") > 0.5);
}

#[test]
fn intensifiers_caps_and_punctuation() {
    assert!(score("very good") > score("good"));
    assert!(score("slightly good") < score("good"));
    assert!(score("this is GOOD today") > score("this is good today"));
    assert_eq!(score("GOOD"), score("good"), "caps only count in mixed-case text");
    assert!(score("good!") > score("good"));
    assert_eq!(score("good!!!!!!!"), score("good!!!!"), "'!' caps at four");
    assert!(score("good??") > score("good?"));
    close("VADER is VERY SMART, handsome, and FUNNY!!!", 0.9342);
    close("Today SUX!", -0.5461);
}

#[test]
fn but_shifts_weight_to_the_second_clause() {
    close("It was good but the ending sucked", -0.4678);
    assert!(score("The food was bad but the staff were lovely") > 0.0);
}

#[test]
fn emoji_emoticons_and_slang() {
    close("😍😍 love it", 0.8807);
    assert!(score("💔") < 0.0);
    assert!(score("so sad 😢") < score("so sad"));
    assert!(score("❤️") > 0.0, "variation selector does not hide the heart");
    assert!(score("great 😂!!") > score("great"));
    close("Make sure you :) or :D today!", 0.8633);
    assert!(score("<3") > 0.0);
    assert!(score("lol") > 0.0);
    assert!(score("smh") < 0.0);
    assert!(score("this slaps, bussin fr") > 0.0);
    assert!(score("so cringe") < 0.0);
}

#[test]
fn idioms() {
    assert!(score("this album is the bomb") > 0.5);
    assert!(score("yeah right") < 0.0);
    assert!(score("a kiss of death for the band") < 0.0);
    close("at least it works", 0.0);
}

#[test]
fn thresholds_are_exact() {
    assert_eq!(bucket(-1.0), Bucket::Negative);
    assert_eq!(bucket(-0.7), Bucket::Negative);
    assert_eq!(bucket(-0.6999), Bucket::SlightNegative);
    assert_eq!(bucket(-0.3001), Bucket::SlightNegative);
    assert_eq!(bucket(-0.3), Bucket::Neutral);
    assert_eq!(bucket(0.0), Bucket::Neutral);
    assert_eq!(bucket(0.3999), Bucket::Neutral);
    assert_eq!(bucket(0.4), Bucket::SlightPositive);
    assert_eq!(bucket(0.7999), Bucket::SlightPositive);
    assert_eq!(bucket(0.8), Bucket::Positive);
    assert_eq!(bucket(1.0), Bucket::Positive);
    assert_eq!(bucket(f64::NAN), Bucket::Neutral);
}

#[test]
fn bucket_wire_names() {
    let names: Vec<String> =
        Bucket::ALL.iter().map(|b| serde_json::to_string(b).unwrap()).collect();
    assert_eq!(
        names,
        [r#""negative""#, r#""slight_negative""#, r#""neutral""#, r#""slight_positive""#, r#""positive""#]
    );
    for b in Bucket::ALL {
        assert_eq!(Bucket::parse(b.as_str()), Some(b));
        assert_eq!(serde_json::from_str::<Bucket>(&format!("\"{b}\"")).unwrap(), b);
    }
    assert_eq!(Bucket::parse("very_positive"), None);
}

#[test]
fn manual_edit_beats_keywords_beats_score() {
    let keywords = CustomKeywords { negative: vec!["refund".into()], ..Default::default() };
    let matcher = keywords.matcher();
    let text = "I love it but I want a refund";
    let scored = score("Love love love it!!");
    assert_eq!(resolve(None, None, scored), Bucket::Positive);
    let custom = matcher.bucket(text);
    assert_eq!(resolve(None, custom, scored), Bucket::Negative);
    assert_eq!(resolve(Some(Bucket::Neutral), custom, scored), Bucket::Neutral);
    // Re-analysis re-scores and re-matches, but the stored manual edit is passed in again.
    assert_eq!(resolve(Some(Bucket::Neutral), None, -0.9), Bucket::Neutral);
}

#[test]
fn long_and_odd_inputs_stay_in_range() {
    let long = "good ".repeat(10_000) + &"!".repeat(1000);
    let s = score(&long);
    assert!((0.99..=1.0).contains(&s));
    for text in ["\u{0}", "!!!???", "   ", "n't n't n't", "😍", "️", "İSTANBUL güzel", "a\u{2019}b"] {
        let s = score(text);
        assert!((-1.0..=1.0).contains(&s), "{text:?} -> {s}");
    }
}

proptest::proptest! {
    #[test]
    fn never_panics_and_stays_in_range(text in "\\PC{0,200}") {
        let s = score(&text);
        proptest::prop_assert!((-1.0..=1.0).contains(&s));
    }

    #[test]
    fn wordy_text_stays_in_range(words in proptest::collection::vec(
        proptest::sample::select(vec![
            "good", "bad", "not", "very", "BUT", "but", "kind", "of", "no", "never", "so",
            "least", "at", "😍", "😡", ":)", "!!", "??", "LOVE", "hate", "the", "bomb",
        ]),
        0..40,
    )) {
        let s = score(&words.join(" "));
        proptest::prop_assert!((-1.0..=1.0).contains(&s));
    }
}
