//! Gender of a person's account from the first name in its display name.
//!
//! Names come from the `gender_guesser` crate (the nam_dict first-name dictionary, ~46,000
//! names). That crate loses the gender of a few hundred common names (its table keeps the last
//! line seen for a name, and the dictionary's name-equivalence lines come last, so "Maria" and
//! "John" read as "both"); [`COMMON`] restores those, and is consulted only for such answers.
//!
//! Accounts that look like organisations ("BBC News", "Nike", "Acme Inc", names with digits)
//! are `Unknown`, as are names the dictionary does not know or calls unisex.

use gender_guesser::{Detector, Gender as Guess};

pub use hark_core::Gender;

/// Words that mark an account as an organisation, not a person.
const ORGANISATION_WORDS: &[&str] = &[
    "official", "news", "inc", "ltd", "llc", "plc", "gmbh", "corp", "co", "company", "group",
    "media", "tv", "radio", "fm", "team", "club", "fc", "shop", "store", "app", "studio",
    "studios", "agency", "foundation", "university", "college", "school", "magazine", "daily",
    "times", "post", "journal", "press", "brand", "support", "help", "hq", "global", "bank",
    "airlines", "airways", "hotel", "restaurant", "cafe", "council", "government", "gov",
    "ministry", "police", "network", "channel", "records", "music", "games", "sports", "store",
    "official_", "updates", "community", "association", "society", "institute", "labs",
];

/// Single-word brands that are also given names in the dictionary.
const BRANDS: &[&str] = &[
    "nike", "chanel", "mercedes", "tiffany", "dior", "zara", "tesla", "wendy's", "wendys",
    "lexus", "mango", "fiat", "porsche", "ferrari", "alexa", "siri", "cortana", "genesis",
];

/// Common given names the packaged table mislabels as "both"; plain facts.
const COMMON: &[(&str, Gender)] = {
    use Gender::{Female as F, Male as M};
    &[
        ("john", M), ("james", M), ("paul", M), ("mike", M), ("tom", M), ("tim", M),
        ("steve", M), ("steven", M), ("jim", M), ("joe", M), ("jack", M), ("harry", M),
        ("jeff", M), ("greg", M), ("ken", M), ("larry", M), ("jerry", M), ("jeremy", M),
        ("nick", M), ("matt", M), ("rob", M), ("bob", M), ("bill", M), ("dave", M),
        ("danny", M), ("tony", M), ("ron", M), ("ronald", M), ("eric", M), ("fred", M),
        ("ivan", M), ("igor", M), ("boris", M), ("oleg", M), ("vladimir", M), ("hans", M),
        ("franz", M), ("max", M), ("leo", M), ("theo", M), ("stefan", M), ("anton", M),
        ("ted", M), ("don", M), ("doug", M), ("phil", M), ("rick", M), ("sam", M),
        ("andy", M), ("billy", M), ("bobby", M), ("tommy", M), ("gianni", M), ("mihai", M),
        ("maria", F), ("anna", F), ("julia", F), ("lisa", F), ("susan", F), ("sally", F),
        ("kate", F), ("katie", F), ("kathy", F), ("jenny", F), ("judy", F), ("betty", F),
        ("becky", F), ("debbie", F), ("heidi", F), ("hanna", F), ("lena", F), ("nina", F),
        ("olga", F), ("irina", F), ("natasha", F), ("natalia", F), ("svetlana", F),
        ("tanya", F), ("vera", F), ("claudia", F), ("magda", F), ("gabi", F), ("tina", F),
        ("sue", F), ("pam", F), ("liz", F), ("lily", F), ("lili", F), ("lina", F),
        ("mandy", F), ("maggie", F), ("gwen", F), ("elise", F), ("ilona", F), ("dora", F),
        ("gianna", F), ("vicky", F), ("rosie", F), ("patty", F), ("nelly", F), ("mimi", F),
        ("annie", F), ("angie", F), ("beth", F), ("bertha", F), ("brooke", F), ("jessie", F),
    ]
};

/// Gender of the person behind `display_name`, judged by its first name.
pub fn from_display_name(display_name: &str) -> Gender {
    let words: Vec<&str> = display_name
        .split(|c: char| c.is_whitespace() || matches!(c, '|' | '/' | ',' | '(' | ')' | '•' | '·'))
        .filter(|w| !w.is_empty())
        .collect();
    if words.is_empty() || looks_like_organisation(&words) {
        return Gender::Unknown;
    }
    let mut names = words.iter().map(|w| w.trim_matches(|c: char| !c.is_alphabetic() && c != '-'));
    let Some(mut first) = names.find(|w| !w.is_empty()) else { return Gender::Unknown };
    // Titles say it outright; otherwise skip to the name after them.
    enum Title {
        Of(Gender),
        Neutral,
        None,
    }
    let title = with_lower(first, |w| match w.trim_end_matches('.') {
        "mr" | "sir" | "mister" | "sr" => Title::Of(Gender::Male),
        "mrs" | "ms" | "miss" | "mme" | "madame" | "sra" | "srta" | "lady" => Title::Of(Gender::Female),
        "dr" | "prof" | "professor" | "rev" => Title::Neutral,
        _ => Title::None,
    });
    match title {
        Title::Of(g) => return g,
        Title::Neutral => match names.find(|w| !w.is_empty()) {
            Some(next) => first = next,
            None => return Gender::Unknown,
        },
        Title::None => {}
    }
    if with_lower(first, |w| BRANDS.contains(&w)) {
        return Gender::Unknown;
    }
    from_first_name(first)
}

/// `f` of the word in lower case: short ASCII words (nearly all names) on the stack, the rest in
/// a new string.
fn with_lower<R>(word: &str, f: impl FnOnce(&str) -> R) -> R {
    let mut buf = [0u8; 32];
    if word.is_ascii() && word.len() <= buf.len() {
        let lower = &mut buf[..word.len()];
        lower.copy_from_slice(word.as_bytes());
        lower.make_ascii_lowercase();
        f(std::str::from_utf8(lower).unwrap_or_default())
    } else {
        f(&word.to_lowercase())
    }
}

/// Gender of a single first name ("Maria", "jean-pierre").
pub fn from_first_name(name: &str) -> Gender {
    let name = name.trim();
    if name.is_empty() || !name.chars().all(|c| c.is_alphabetic() || c == '-' || c == '\'') {
        return Gender::Unknown;
    }
    match guess(name) {
        Gender::Unknown => {}
        known => return known,
    }
    // "Jean-Pierre" unknown as a whole: the first part decides ("Jean" is male).
    match name.split_once('-') {
        Some((head, _)) if !head.is_empty() => guess(head),
        _ => Gender::Unknown,
    }
}

fn guess(name: &str) -> Gender {
    match Detector::new().get_gender(name) {
        Guess::Male | Guess::MayBeMale => Gender::Male,
        Guess::Female | Guess::MayBeFemale => Gender::Female,
        Guess::BothMaleFemale => {
            let lower = name.to_lowercase();
            COMMON.iter().find(|(n, _)| *n == lower).map_or(Gender::Unknown, |&(_, g)| g)
        }
        Guess::NotSure | Guess::NotFound => Gender::Unknown,
    }
}

fn looks_like_organisation(words: &[&str]) -> bool {
    words.iter().any(|w| {
        w.bytes().any(|b| b.is_ascii_digit())
            || with_lower(w, |lower| {
                let bare = lower.trim_matches(|c: char| !c.is_alphanumeric() && c != '\'');
                ORGANISATION_WORDS.contains(&bare) || bare.ends_with("news") || bare.ends_with("official")
            })
    }) || (words.len() == 1 && is_acronym(words[0]))
        || words.first().is_some_and(|w| is_acronym(w) && w.chars().count() >= 3)
}

/// "BBC", "NASA": brand-style capitals, not a person's name.
fn is_acronym(word: &str) -> bool {
    let mut letters = word.chars().filter(|c| c.is_alphabetic());
    letters.clone().nth(1).is_some() && letters.all(char::is_uppercase)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn people() {
        assert_eq!(from_display_name("Maria Garcia"), Gender::Female);
        assert_eq!(from_display_name("John Smith"), Gender::Male);
        assert_eq!(from_display_name("Sarah ✨ travel + food"), Gender::Female);
        assert_eq!(from_display_name("michael jordan"), Gender::Male);
        assert_eq!(from_display_name("Jean-Pierre Dupont"), Gender::Male);
        assert_eq!(from_display_name("José Silva"), Gender::Male);
        assert_eq!(from_display_name("Priya Sharma"), Gender::Female);
        assert_eq!(from_display_name("Dr. Emily Chen"), Gender::Female);
        assert_eq!(from_display_name("Mrs Robinson"), Gender::Female);
        assert_eq!(from_display_name("Mr. Bean"), Gender::Male);
        // Titles and brands in any case; a name after a neutral title.
        assert_eq!(from_display_name("MR Bean"), Gender::Male);
        assert_eq!(from_display_name("mrs. robinson"), Gender::Female);
        assert_eq!(from_display_name("prof. Maria Curie"), Gender::Female);
        assert_eq!(from_display_name("NIKE"), Gender::Unknown);
        assert_eq!(from_display_name("Tesla Motors"), Gender::Unknown);
    }

    #[test]
    fn organisation_words_outside_ascii_and_long_words() {
        assert_eq!(from_display_name("Ümit NEWS"), Gender::Unknown);
        assert_eq!(from_display_name("Anna Müller"), Gender::Female);
        assert_eq!(from_display_name("Anna ÖFFICIAL"), Gender::Female);
        assert_eq!(from_display_name("Anna Supercalifragilisticexpialidocious-official"), Gender::Unknown);
        assert_eq!(from_display_name("Anna Supercalifragilisticexpialidocious-Smith"), Gender::Female);
    }

    #[test]
    fn organisations_are_unknown() {
        for name in [
            "BBC News", "Nike", "NASA", "Acme Inc", "Maria's Bakery Official", "CNN",
            "Sky Sports News", "Team Liquid", "user12345", "Anna 2024", "Real Madrid C.F. Official",
        ] {
            assert_eq!(from_display_name(name), Gender::Unknown, "{name}");
        }
    }

    #[test]
    fn unknown_and_unisex_names_are_unknown() {
        for name in ["", "   ", "🙂🙂", "Xzqwv Blorp", "Alex Kim", "Dr.", "--"] {
            assert_eq!(from_display_name(name), Gender::Unknown, "{name:?}");
        }
    }

    #[test]
    fn first_names_alone() {
        assert_eq!(from_first_name("Anna"), Gender::Female);
        assert_eq!(from_first_name("paul"), Gender::Male);
        assert_eq!(from_first_name("R2D2"), Gender::Unknown);
    }

    #[test]
    fn wire_names() {
        assert_eq!(serde_json::to_string(&Gender::Female).unwrap(), "\"female\"");
        assert_eq!(Gender::Unknown.as_str(), "unknown");
    }

    proptest::proptest! {
        #[test]
        fn never_panics(name in "\\PC{0,80}") {
            let _ = from_display_name(&name);
        }
    }
}
