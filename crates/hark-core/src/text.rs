//! Text normalisation shared by the matcher, its reference and entity extraction.
//!
//! Folding (per character): compatibility decomposition (the K of NFKC, so full-width letters,
//! ligatures and the like become plain letters), lowercase, and diacritics dropped (`Café` →
//! `cafe`). Only the combining *diacritical* blocks are dropped; other combining marks (Indic
//! vowel signs, the kana voicing mark) stay, attached to their word, so those scripts keep their
//! meaning. Hangul syllables are left whole.
//!
//! Tokenising: a token is a run of word characters (letters, digits, `_`, with combining marks
//! attached). Han ideographs and kana are each a token of their own, since those scripts do not
//! separate words with spaces: a term in them then matches as a sequence of characters. Anything
//! else separates tokens. A `#`, `@` or `$` directly before a token, and not itself directly after
//! a word character, marks the token as a hashtag, mention or cashtag ([`Sigil`]); `me@nike.com`
//! has no mention.
//!
//! [`NormText`] is the fast form the matcher scans: `" tok tok \n tok "` (every token followed by
//! one space, fields separated by a newline so a phrase never spans two fields), with the sigils
//! kept aside by token offset. [`tokenize`] is a deliberately plain second implementation used by
//! the reference matcher and the tests.

use unicode_normalization::char::{decompose_compatible, is_combining_mark};

/// What marks a token: `#tag`, `@name` or `$CASH`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Sigil {
    Hash,
    At,
    Dollar,
}

impl Sigil {
    pub fn from_char(c: char) -> Option<Self> {
        match c {
            '#' => Some(Self::Hash),
            '@' => Some(Self::At),
            '$' => Some(Self::Dollar),
            _ => None,
        }
    }

    pub fn as_char(self) -> char {
        match self {
            Self::Hash => '#',
            Self::At => '@',
            Self::Dollar => '$',
        }
    }
}

/// Combining marks that are diacritics on Latin, Greek or Cyrillic letters; these fold away.
pub fn is_diacritic(c: char) -> bool {
    matches!(c as u32, 0x0300..=0x036F | 0x1AB0..=0x1AFF | 0x1DC0..=0x1DFF | 0x20D0..=0x20FF | 0xFE20..=0xFE2F)
}

/// Letters with a stroke or similar that do not decompose but fold like a diacritic would.
fn fold_special(c: char) -> char {
    match c {
        'ł' => 'l',
        'ø' => 'o',
        'đ' => 'd',
        'ħ' => 'h',
        'ı' => 'i',
        'ŧ' => 't',
        'ς' => 'σ',
        _ => c,
    }
}

fn is_hangul_syllable(c: char) -> bool {
    matches!(c as u32, 0xAC00..=0xD7A3)
}

/// Characters that form a token on their own (scripts written without spaces between words).
pub fn is_solo(c: char) -> bool {
    matches!(c as u32,
        0x3040..=0x3098 | 0x309B..=0x30FF // hiragana, katakana (not the combining voicing marks)
        | 0x31F0..=0x31FF    // katakana phonetic extensions
        | 0x3400..=0x4DBF    // CJK extension A
        | 0x4E00..=0x9FFF    // CJK unified ideographs
        | 0xF900..=0xFAFF    // CJK compatibility ideographs
        | 0x20000..=0x3FFFF) // CJK extensions B and later
}

/// ASCII letters, digits and `_`.
const WORD_BYTES: [bool; 256] = {
    let mut t = [false; 256];
    let mut i = 0;
    while i < 256 {
        let b = i as u8;
        t[i] = b.is_ascii_alphanumeric() || b == b'_';
        i += 1;
    }
    t
};

#[inline]
fn is_word_byte(b: u8) -> bool {
    WORD_BYTES[b as usize]
}

pub fn is_word_char(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

/// Folds one character, handing each resulting character to `emit`.
#[inline]
pub fn fold_char(c: char, mut emit: impl FnMut(char)) {
    if c.is_ascii() {
        emit(c.to_ascii_lowercase());
        return;
    }
    if is_hangul_syllable(c) {
        emit(c);
        return;
    }
    decompose_compatible(c, |d| {
        if is_diacritic(d) {
            return;
        }
        for l in d.to_lowercase() {
            if !is_diacritic(l) {
                emit(fold_special(l));
            }
        }
    });
}

/// The folded form of a whole string (no tokenising).
pub fn fold(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        fold_char(c, |f| out.push(f));
    }
    out
}

/// One token of [`tokenize`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Token {
    pub word: String,
    pub sigil: Option<Sigil>,
}

/// Splits text into folded tokens. Plain on purpose: the matcher's reference and tests use it to
/// check [`NormText`], which does the same work in one pass.
pub fn tokenize(s: &str) -> Vec<Token> {
    let chars: Vec<char> = fold(s).chars().collect();
    let mut tokens: Vec<Token> = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        if !is_word_char(c) {
            i += 1;
            continue;
        }
        // A token starts at i. Its sigil is the character before, if that one follows a non-word
        // character or the start (marks count as part of a word).
        let sigil = if i >= 1 {
            Sigil::from_char(chars[i - 1]).filter(|_| {
                i < 2 || !(is_word_char(chars[i - 2]) || is_combining_mark(chars[i - 2]))
            })
        } else {
            None
        };
        let mut word = String::new();
        word.push(c);
        i += 1;
        if !is_solo(c) {
            while i < chars.len() && (is_word_char(chars[i]) || is_combining_mark(chars[i])) && !is_solo(chars[i]) {
                word.push(chars[i]);
                i += 1;
            }
        }
        while i < chars.len() && is_combining_mark(chars[i]) {
            word.push(chars[i]);
            i += 1;
        }
        tokens.push(Token { word, sigil });
    }
    tokens
}

/// Normalised text of a post, built once and scanned by the matcher; reuse one across posts.
#[derive(Debug, Clone)]
pub struct NormText {
    text: String,
    /// Byte offset in `text` where a token starts, and its sigil; in increasing offset order.
    sigils: Vec<(u32, Sigil)>,
    fields_with_tokens: usize,
}

impl Default for NormText {
    fn default() -> Self {
        Self::new()
    }
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Prev {
    /// Start of field, or after a separator.
    Sep,
    /// After a sigil character that itself followed a separator.
    Sigil(Sigil),
    /// Inside a token of word characters.
    Word,
    /// Right after a solo character (or a mark attached to one).
    Solo,
    /// After a combining mark that is not part of a word.
    Glue,
}

impl NormText {
    pub fn new() -> Self {
        Self { text: String::from(" "), sigils: Vec::new(), fields_with_tokens: 0 }
    }

    /// Builds the normalised form of one field.
    pub fn of(s: &str) -> Self {
        let mut n = Self::new();
        n.push_field(s);
        n
    }

    pub fn clear(&mut self) {
        self.text.clear();
        self.text.push(' ');
        self.sigils.clear();
        self.fields_with_tokens = 0;
    }

    /// The scanned form: `" tok tok \n tok "`.
    pub fn as_str(&self) -> &str {
        &self.text
    }

    pub fn is_empty(&self) -> bool {
        self.fields_with_tokens == 0
    }

    /// Sigils by token start offset.
    pub fn sigils(&self) -> &[(u32, Sigil)] {
        &self.sigils
    }

    /// The sigil of the token starting at byte `offset`, if any.
    #[inline]
    pub fn sigil_at(&self, offset: usize) -> Option<Sigil> {
        if self.sigils.is_empty() {
            return None;
        }
        let off = offset as u32;
        self.sigils.binary_search_by_key(&off, |(o, _)| *o).ok().map(|i| self.sigils[i].1)
    }

    /// Appends one field (title, text, quoted text...). Phrases never match across fields.
    pub fn push_field(&mut self, s: &str) {
        if s.is_empty() {
            return;
        }
        if self.fields_with_tokens > 0 && !self.text.ends_with("\n ") {
            self.text.push_str("\n ");
        }
        let before = self.text.len();
        let mut prev = Prev::Sep;
        // ASCII runs are already in normal form apart from case and go through a byte loop;
        // other characters are folded one by one.
        let mut rest = s;
        while !rest.is_empty() {
            let n = rest.bytes().position(|b| !b.is_ascii()).unwrap_or(rest.len());
            self.ascii_run(&rest[..n], &mut prev);
            rest = &rest[n..];
            let m = rest.bytes().position(|b| b.is_ascii()).unwrap_or(rest.len());
            for c in rest[..m].chars() {
                let mut buf = [' '; 8];
                let mut k = 0usize;
                let mut extra: Vec<char> = Vec::new();
                fold_char(c, |f| {
                    if k < buf.len() {
                        buf[k] = f;
                        k += 1;
                    } else {
                        extra.push(f);
                    }
                });
                for &f in &buf[..k] {
                    self.step(f, &mut prev);
                }
                for f in extra {
                    self.step(f, &mut prev);
                }
            }
            rest = &rest[m..];
        }
        if matches!(prev, Prev::Word | Prev::Solo) {
            self.text.push(' ');
        }
        if self.text.len() > before {
            self.fields_with_tokens += 1;
        }
    }

    /// [`NormText::step`] for a run of ASCII, a word at a time.
    fn ascii_run(&mut self, run: &str, prev: &mut Prev) {
        let b = run.as_bytes();
        let mut i = 0;
        while i < b.len() {
            if is_word_byte(b[i]) {
                let mut j = i + 1;
                while j < b.len() && is_word_byte(b[j]) {
                    j += 1;
                }
                match *prev {
                    Prev::Word => {}
                    Prev::Solo => self.text.push(' '),
                    p => self.start_token(p),
                }
                let at = self.text.len();
                self.text.push_str(&run[i..j]);
                self.text[at..].make_ascii_lowercase();
                *prev = Prev::Word;
                i = j;
            } else {
                // The ASCII case of `step` for a character that is not a word character.
                *prev = match *prev {
                    Prev::Word | Prev::Solo => {
                        self.text.push(' ');
                        Prev::Sep
                    }
                    Prev::Glue => Prev::Sep,
                    Prev::Sep | Prev::Sigil(_) => match b[i] {
                        b'#' => Prev::Sigil(Sigil::Hash),
                        b'@' => Prev::Sigil(Sigil::At),
                        b'$' => Prev::Sigil(Sigil::Dollar),
                        _ => Prev::Sep,
                    },
                };
                i += 1;
            }
        }
    }

    #[inline]
    fn start_token(&mut self, prev: Prev) {
        if let Prev::Sigil(s) = prev {
            self.sigils.push((self.text.len() as u32, s));
        }
    }

    #[inline]
    fn step(&mut self, c: char, prev: &mut Prev) {
        if !c.is_ascii() && matches!(*prev, Prev::Word | Prev::Solo) && is_combining_mark(c) {
            self.text.push(c);
            return;
        }
        let word = if c.is_ascii() { c.is_ascii_alphanumeric() || c == '_' } else { is_word_char(c) };
        if word {
            let solo = !c.is_ascii() && is_solo(c);
            match *prev {
                Prev::Word if !solo => {}
                Prev::Word | Prev::Solo => {
                    self.text.push(' ');
                }
                p => self.start_token(p),
            }
            self.text.push(c);
            *prev = if solo { Prev::Solo } else { Prev::Word };
            return;
        }
        if matches!(*prev, Prev::Word | Prev::Solo) {
            self.text.push(' ');
            *prev = Prev::Sep;
            // A sigil right after a word character marks nothing; the next token is plain.
            return;
        }
        *prev = if !c.is_ascii() && is_combining_mark(c) {
            // A stray mark outside a word: a tag sign right after it marks nothing.
            Prev::Glue
        } else {
            match Sigil::from_char(c) {
                Some(s) if *prev != Prev::Glue => Prev::Sigil(s),
                _ => Prev::Sep,
            }
        };
    }

    /// Writes into `out` this text with every token `keep` refuses replaced by a field break, so
    /// a phrase can still match only words that are adjacent here. The matcher scans the shorter
    /// text: most words of a post are in no tracker's terms.
    pub fn filter_into(&self, out: &mut NormText, mut keep: impl FnMut(&str) -> bool) {
        out.clear();
        let text = self.text.as_str();
        let bytes = text.as_bytes();
        let mut sig = 0usize;
        let mut i = 1usize;
        let mut kept_any = false;
        while i < bytes.len() {
            if bytes[i] == b'\n' {
                out.push_break();
                i += 2;
                continue;
            }
            let end = bytes[i..].iter().position(|&b| b == b' ').map_or(bytes.len(), |p| i + p);
            let token = &text[i..end];
            if keep(token) {
                while sig < self.sigils.len() && (self.sigils[sig].0 as usize) < i {
                    sig += 1;
                }
                if sig < self.sigils.len() && self.sigils[sig].0 as usize == i {
                    out.sigils.push((out.text.len() as u32, self.sigils[sig].1));
                }
                out.text.push_str(token);
                out.text.push(' ');
                kept_any = true;
            } else {
                out.push_break();
            }
            i = end + 1;
        }
        out.fields_with_tokens = usize::from(kept_any);
    }

    fn push_break(&mut self) {
        if self.text.len() > 1 && !self.text.ends_with("\n ") {
            self.text.push_str("\n ");
        }
    }

    /// The tokens of the normalised text, with sigils (for tests and the entity code).
    pub fn tokens(&self) -> Vec<Token> {
        let mut out = Vec::new();
        let mut start = None;
        for (i, c) in self.text.char_indices() {
            if c == ' ' || c == '\n' {
                if let Some(s) = start.take() {
                    out.push(Token { word: self.text[s..i].to_string(), sigil: self.sigil_at(s) });
                }
            } else if start.is_none() {
                start = Some(i);
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(s: &str) -> Vec<String> {
        tokenize(s).into_iter().map(|t| match t.sigil {
            Some(g) => format!("{}{}", g.as_char(), t.word),
            None => t.word,
        }).collect()
    }

    #[test]
    fn folds_case_width_and_diacritics() {
        assert_eq!(fold("Café ÜBER Ｎｉｋｅ ﬁne Łódź"), "cafe uber nike fine lodz");
        assert_eq!(fold("İstanbul"), "istanbul");
        assert_eq!(fold("ΟΔΟΣ"), "οδοσ");
        assert_eq!(fold("οδος"), "οδοσ");
        // Hangul syllables stay whole.
        assert_eq!(fold("한국"), "한국");
    }

    #[test]
    fn tokenizes_with_sigils() {
        assert_eq!(words("Love #Nike's new @NikeStore $AAPL!"), ["love", "#nike", "s", "new", "@nikestore", "$aapl"]);
        assert_eq!(words("mail me@nike.com a#b"), ["mail", "me", "nike", "com", "a", "b"]);
        assert_eq!(words("##double #@mixed"), ["#double", "@mixed"]);
        assert_eq!(words("我爱耐克 shoes"), ["我", "爱", "耐", "克", "shoes"]);
        assert_eq!(words("..."), Vec::<String>::new());
    }

    #[test]
    fn norm_text_layout() {
        let mut n = NormText::new();
        n.push_field("Hello, #World!");
        n.push_field("");
        n.push_field("  second   field ");
        assert_eq!(n.as_str(), " hello world \n second field ");
        assert_eq!(n.sigil_at(7), Some(Sigil::Hash));
        assert_eq!(n.sigil_at(1), None);
        n.clear();
        assert!(n.is_empty());
        n.push_field("!!");
        assert!(n.is_empty());
        n.push_field("x");
        assert_eq!(n.as_str(), " x ");
    }

    #[test]
    fn filtering_breaks_phrases_at_dropped_words() {
        let n = NormText::of("#Nike and AIR max, @air");
        let mut out = NormText::new();
        n.filter_into(&mut out, |t| t != "and");
        assert_eq!(out.as_str(), " nike \n air max air ");
        assert_eq!(out.sigils(), &[(1, Sigil::Hash), (16, Sigil::At)]);
        n.filter_into(&mut out, |_| false);
        assert_eq!(out.as_str(), " ");
        assert!(out.is_empty());
        let mut two = NormText::of("a b");
        two.push_field("c");
        two.filter_into(&mut out, |t| t != "b");
        assert_eq!(out.as_str(), " a \n c ");
    }

    #[test]
    fn norm_text_agrees_with_tokenize() {
        let samples = [
            "Ça va? #ÉTÉ @Zoë $btc",
            "耐克ナイキ #日本 東京タワー",
            "e\u{301}te\u{301} ü",
            "a#b c@d #_x @@y $$z #1",
            "नमस्ते दुनिया #भारत",
            "\u{301}start mark",
            "ﬀ ㎏ ① Ⅻ",
            "a\u{0}b\u{ffff}c",
            "\u{11366}#0",
            "\u{dcf}\u{3099}a",
        ];
        for s in samples {
            assert_eq!(NormText::of(s).tokens(), tokenize(s), "{s:?}");
        }
    }
}
