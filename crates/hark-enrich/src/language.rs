//! Language of a post as an ISO 639-1 code, by whatlang's trigram and script models.
//!
//! Links, @mentions and the '#' of hashtags are removed first (they are not language), and a
//! text with too little left to judge, or one whatlang is unsure about, gets `None` rather than
//! a guess: a post counted under the wrong language is worse than one left unlabelled.

/// Fewer letters than this (after cleaning) is too short to call.
const MIN_LETTERS: usize = 12;
/// whatlang's confidence is the margin between its two best guesses; on post-length Latin
/// text a correct answer often scores 0.1–0.3, so this only drops near ties.
const MIN_CONFIDENCE: f64 = 0.1;

/// The languages Hark tells apart: the common languages of social media. Comparing a text with
/// fewer trigram models is several times faster than with all of whatlang's, and rare languages
/// were the least reliable guesses on short posts anyway.
const LANGUAGES: &[whatlang::Lang] = {
    use whatlang::Lang::*;
    &[
        Eng, Spa, Por, Fra, Deu, Ita, Nld, Swe, Dan, Nob, Fin, Pol, Ces, Ron, Hun, Tur, Ind, Vie, Tgl, Rus, Ukr,
        Ell, Ara, Heb, Pes, Hin, Ben, Tha, Jpn, Cmn, Kor,
    ]
};

fn detector() -> &'static whatlang::Detector {
    static DETECTOR: std::sync::OnceLock<whatlang::Detector> = std::sync::OnceLock::new();
    DETECTOR.get_or_init(|| whatlang::Detector::with_allowlist(LANGUAGES.to_vec()))
}

/// ISO 639-1 code of `text`'s language, or `None` when the text is short or ambiguous.
pub fn detect(text: &str) -> Option<&'static str> {
    let cleaned = clean(text);
    let letters = cleaned.chars().filter(|c| c.is_alphabetic()).count();
    // Scripts without spaces (Chinese, Japanese, Thai) pack a word into 1-3 letters.
    let dense = cleaned.chars().any(|c| is_dense_script(c));
    if letters < if dense { 4 } else { MIN_LETTERS } {
        return None;
    }
    let info = detector().detect(&cleaned)?;
    if !(info.is_reliable() || info.confidence() >= MIN_CONFIDENCE) {
        return None;
    }
    iso_639_1(info.lang())
}

/// The two-letter code of a whatlang language (whatlang names them by ISO 639-3).
pub fn iso_639_1(lang: whatlang::Lang) -> Option<&'static str> {
    // Individual languages whose two-letter code belongs to their macrolanguage.
    match lang.code() {
        "cmn" => return Some("zh"),
        "pes" => return Some("fa"),
        "ydd" | "yid" => return Some("yi"),
        "uzb" | "uzn" => return Some("uz"),
        "azj" | "aze" => return Some("az"),
        "lvs" | "lav" => return Some("lv"),
        "zsm" | "msa" => return Some("ms"),
        "ekk" | "est" => return Some("et"),
        "npi" | "nep" => return Some("ne"),
        "ory" | "ori" => return Some("or"),
        _ => {}
    }
    isolang::Language::from_639_3(lang.code()).and_then(|l| l.to_639_1())
}

fn clean(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for word in text.split_whitespace() {
        let starts = |prefix: &str| {
            word.len() >= prefix.len()
                && word.as_bytes()[..prefix.len()].eq_ignore_ascii_case(prefix.as_bytes())
        };
        if word.starts_with('@') || starts("http://") || starts("https://") || starts("www.") {
            continue;
        }
        if !out.is_empty() {
            out.push(' ');
        }
        out.push_str(word.trim_start_matches('#'));
    }
    out
}

fn is_dense_script(c: char) -> bool {
    matches!(c as u32,
        0x3040..=0x30FF   // hiragana, katakana
        | 0x3400..=0x4DBF // CJK extension A
        | 0x4E00..=0x9FFF // CJK unified ideographs
        | 0xAC00..=0xD7AF // hangul syllables
        | 0x0E00..=0x0E7F // thai
        | 0x0E80..=0x0EFF // lao
        | 0x1780..=0x17FF // khmer
        | 0x1000..=0x109F // myanmar
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn common_languages() {
        assert_eq!(detect("I really love the new camera on this phone, best upgrade ever"), Some("en"));
        assert_eq!(detect("Me encanta la nueva cámara de este teléfono, la mejor compra"), Some("es"));
        assert_eq!(detect("Je suis très content de ce nouveau téléphone, merci beaucoup à vous"), Some("fr"));
        assert_eq!(detect("Ich liebe die neue Kamera dieses Telefons, wirklich großartig"), Some("de"));
        assert_eq!(detect("Eu amo a nova câmera deste telefone, foi a melhor compra do ano"), Some("pt"));
        assert_eq!(detect("Мне очень нравится новая камера этого телефона"), Some("ru"));
        assert_eq!(detect("この携帯電話の新しいカメラが大好きです"), Some("ja"));
        assert_eq!(detect("我非常喜欢这款手机的新相机"), Some("zh"));
        assert_eq!(detect("이 휴대폰의 새 카메라가 정말 좋아요"), Some("ko"));
        assert_eq!(detect("أحب الكاميرا الجديدة في هذا الهاتف كثيرا"), Some("ar"));
    }

    #[test]
    fn links_mentions_and_hashtags_do_not_count() {
        assert_eq!(detect("@someone https://example.com/a/b #love"), None);
        assert_eq!(
            detect("@marca me encanta este producto, llegó muy rápido https://t.co/xyz #feliz"),
            Some("es")
        );
    }

    #[test]
    fn short_or_empty_text_is_unknown() {
        assert_eq!(detect(""), None);
        assert_eq!(detect("lol"), None);
        assert_eq!(detect("ok 👍"), None);
        assert_eq!(detect("12345 678 !!!"), None);
    }

    #[test]
    fn every_whatlang_language_has_a_two_letter_code() {
        for &lang in whatlang::Lang::all() {
            let code = iso_639_1(lang);
            assert!(code.is_some_and(|c| c.len() == 2), "{lang:?} ({}) -> {code:?}", lang.code());
        }
    }

    proptest::proptest! {
        #[test]
        fn never_panics(text in "\\PC{0,200}") {
            if let Some(code) = detect(&text) {
                proptest::prop_assert_eq!(code.len(), 2);
            }
        }
    }
}
