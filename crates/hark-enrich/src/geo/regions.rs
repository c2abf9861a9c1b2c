//! States and provinces (ISO 3166-2) of a post's place, where it resolves to one: from the
//! coordinates (the subdivisions `country-boundaries` carries) or from a free-text location that
//! names a US state, a Canadian province or territory or an Australian state ("Austin, TX",
//! "Toronto, Ontario", "Perth, Western Australia").

/// ISO 3166-2 code and English name of the subdivisions recognised in free text.
pub(super) const SUBDIVISIONS: &[(&str, &str)] = &[
    ("US-AL", "Alabama"), ("US-AK", "Alaska"), ("US-AZ", "Arizona"), ("US-AR", "Arkansas"),
    ("US-CA", "California"), ("US-CO", "Colorado"), ("US-CT", "Connecticut"), ("US-DE", "Delaware"),
    ("US-FL", "Florida"), ("US-GA", "Georgia"), ("US-HI", "Hawaii"), ("US-ID", "Idaho"),
    ("US-IL", "Illinois"), ("US-IN", "Indiana"), ("US-IA", "Iowa"), ("US-KS", "Kansas"),
    ("US-KY", "Kentucky"), ("US-LA", "Louisiana"), ("US-ME", "Maine"), ("US-MD", "Maryland"),
    ("US-MA", "Massachusetts"), ("US-MI", "Michigan"), ("US-MN", "Minnesota"), ("US-MS", "Mississippi"),
    ("US-MO", "Missouri"), ("US-MT", "Montana"), ("US-NE", "Nebraska"), ("US-NV", "Nevada"),
    ("US-NH", "New Hampshire"), ("US-NJ", "New Jersey"), ("US-NM", "New Mexico"), ("US-NY", "New York"),
    ("US-NC", "North Carolina"), ("US-ND", "North Dakota"), ("US-OH", "Ohio"), ("US-OK", "Oklahoma"),
    ("US-OR", "Oregon"), ("US-PA", "Pennsylvania"), ("US-RI", "Rhode Island"), ("US-SC", "South Carolina"),
    ("US-SD", "South Dakota"), ("US-TN", "Tennessee"), ("US-TX", "Texas"), ("US-UT", "Utah"),
    ("US-VT", "Vermont"), ("US-VA", "Virginia"), ("US-WA", "Washington"), ("US-WV", "West Virginia"),
    ("US-WI", "Wisconsin"), ("US-WY", "Wyoming"), ("US-DC", "District of Columbia"),
    ("CA-AB", "Alberta"), ("CA-BC", "British Columbia"), ("CA-MB", "Manitoba"), ("CA-NB", "New Brunswick"),
    ("CA-NL", "Newfoundland and Labrador"), ("CA-NS", "Nova Scotia"), ("CA-NT", "Northwest Territories"),
    ("CA-NU", "Nunavut"), ("CA-ON", "Ontario"), ("CA-PE", "Prince Edward Island"), ("CA-QC", "Quebec"),
    ("CA-SK", "Saskatchewan"), ("CA-YT", "Yukon"),
    ("AU-NSW", "New South Wales"), ("AU-QLD", "Queensland"), ("AU-SA", "South Australia"),
    ("AU-TAS", "Tasmania"), ("AU-VIC", "Victoria"), ("AU-WA", "Western Australia"),
    ("AU-ACT", "Australian Capital Territory"), ("AU-NT", "Northern Territory"),
];

/// Other ways the free text names them (folded as [`super::fold`] folds).
const ALIASES: &[(&str, &str)] = &[
    ("washington dc", "US-DC"), ("washington d c", "US-DC"), ("d c", "US-DC"), ("newfoundland", "CA-NL"),
    ("pei", "CA-PE"), ("nsw", "AU-NSW"), ("qld", "AU-QLD"), ("tas", "AU-TAS"), ("vic", "AU-VIC"),
];

/// Canadian province and territory postal codes, written in capitals after a city.
const CA_CODES: &[&str] = &["AB", "BC", "MB", "NB", "NL", "NS", "NT", "NU", "ON", "PE", "QC", "SK", "YT"];

/// The English name of a subdivision code.
pub fn region_name(code: &str) -> Option<&'static str> {
    SUBDIVISIONS.iter().find(|(c, _)| *c == code).map(|(_, n)| *n)
}

/// Folded names and aliases to codes, built once (folding every name per lookup cost more than
/// the rest of a post's enrichment).
fn by_name(folded: &str) -> Option<&'static str> {
    static NAMES: std::sync::OnceLock<rustc_hash::FxHashMap<String, &'static str>> = std::sync::OnceLock::new();
    let names = NAMES.get_or_init(|| {
        let mut m: rustc_hash::FxHashMap<String, &'static str> = SUBDIVISIONS.iter().map(|(c, n)| (super::fold(n), *c)).collect();
        for (alias, code) in ALIASES {
            m.entry((*alias).to_string()).or_insert(code);
        }
        m
    });
    names.get(folded).copied()
}

/// The subdivision a free-text location names, when its country is `country` (the country the
/// location resolves to): "Austin, TX" and "Texas" are US-TX, "Paris, Texas" too, "Perth, WA"
/// stays unknown (Washington or Western Australia).
pub fn region_from_location(text: &str, country: &str) -> Option<&'static str> {
    let parts: Vec<&str> = text.split([',', '|', '/', ';', '·', '•', '(', ')', '\n']).map(str::trim).filter(|p| !p.is_empty()).collect();
    for (index, raw) in parts.iter().enumerate().rev() {
        let code_like = raw.len() <= 3 && raw.bytes().all(|b| b.is_ascii_uppercase());
        if code_like && index > 0 {
            let (list, prefix): (&[&str], &str) = match country {
                "US" => (super::places::US_STATE_CODES, "US"),
                "CA" => (CA_CODES, "CA"),
                _ => (&[], ""),
            };
            if list.contains(raw) {
                let code = format!("{prefix}-{raw}");
                return SUBDIVISIONS.iter().find(|(c, _)| *c == code).map(|(c, _)| *c);
            }
        }
        if let Some(code) = by_name(&super::fold(raw)) {
            // "Georgia" or "Victoria" only count where the country agrees.
            return code.starts_with(country).then_some(code);
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn states_and_provinces_from_free_text() {
        assert_eq!(region_from_location("Austin, TX", "US"), Some("US-TX"));
        assert_eq!(region_from_location("Paris, Texas", "US"), Some("US-TX"));
        assert_eq!(region_from_location("Toronto, Ontario", "CA"), Some("CA-ON"));
        assert_eq!(region_from_location("Montreal, QC", "CA"), Some("CA-QC"));
        assert_eq!(region_from_location("Perth, Western Australia", "AU"), Some("AU-WA"));
        assert_eq!(region_from_location("Washington DC", "US"), Some("US-DC"));
        // Georgia the country is no state; a city alone names none.
        assert_eq!(region_from_location("Tbilisi, Georgia", "GE"), None);
        assert_eq!(region_from_location("London", "GB"), None);
        assert_eq!(region_name("US-TX"), Some("Texas"));
    }
}
