//! Country of a post (ISO 3166-1 alpha-2) from its coordinates or its author's free-text
//! location.
//!
//! Data: country polygons from `country-boundaries` (OpenStreetMap, ODbL); country names,
//! unofficial names and translations into many languages from `keshvar`; ~10,600 cities with
//! their country from `cities` (ranked by importance within each country, which settles names
//! shared by several countries: "London" is GB before CA); US states, Canadian provinces and a
//! short list of nicknames and cities those sources lack ("NYC", "Bay Area", "Taipei") are kept
//! in [`places`].
//!
//! As the spec says, Hong Kong and Taiwan count as China (CN); Great Britain, the UK, England,
//! Scotland, Wales and Northern Ireland are GB. Anything not recognised stays `None`.

mod places;
mod regions;

pub use regions::{region_from_location, region_name};

use country_boundaries::{CountryBoundaries, LatLon, BOUNDARIES_ODBL_360X180};
use rustc_hash::FxHashMap;
use std::sync::OnceLock;
use unicode_normalization::UnicodeNormalization;

/// Country containing the point, or `None` at sea, off the globe or for non-finite input.
pub fn country_from_coordinates(lat: f64, lon: f64) -> Option<&'static str> {
    if !(lat.is_finite() && lon.is_finite()) || lat.abs() > 90.0 || lon.abs() > 180.0 {
        return None;
    }
    let position = LatLon::new(lat, lon).ok()?;
    let tables = tables();
    let boundaries = tables.boundaries.as_ref()?;
    // Ids come smallest area first and include subdivisions ("US-TX"); the country is the
    // first plain two-letter id.
    let ids = boundaries.ids(position);
    let id = ids.into_iter().find(|id| id.len() == 2 && id.bytes().all(|b| b.is_ascii_uppercase()))?;
    tables.code(id)
}

/// The country and, where the boundary data has one, the state or province (ISO 3166-2) of a
/// point, from one boundary lookup.
pub fn place_from_coordinates(lat: f64, lon: f64) -> (Option<&'static str>, Option<&'static str>) {
    if !(lat.is_finite() && lon.is_finite()) || lat.abs() > 90.0 || lon.abs() > 180.0 {
        return (None, None);
    }
    let Ok(position) = LatLon::new(lat, lon) else { return (None, None) };
    let tables = tables();
    let Some(boundaries) = tables.boundaries.as_ref() else { return (None, None) };
    let ids = boundaries.ids(position);
    let country = ids.iter().find(|id| id.len() == 2 && id.bytes().all(|b| b.is_ascii_uppercase())).and_then(|id| tables.code(id));
    let region = ids.into_iter().find(|id| id.len() > 3 && id.as_bytes()[2] == b'-');
    (country, region)
}

/// The state or province (ISO 3166-2, "US-TX") containing the point, where the boundary data
/// has one for its country.
pub fn region_from_coordinates(lat: f64, lon: f64) -> Option<&'static str> {
    if !(lat.is_finite() && lon.is_finite()) || lat.abs() > 90.0 || lon.abs() > 180.0 {
        return None;
    }
    let position = LatLon::new(lat, lon).ok()?;
    let boundaries = tables().boundaries.as_ref()?;
    boundaries.ids(position).into_iter().find(|id| id.len() > 3 && id.as_bytes()[2] == b'-')
}

/// Country named or implied by a free-text location: "London, UK", "NYC", "Austin, TX",
/// "São Paulo", "Deutschland", "🇧🇷", "somewhere in France".
pub fn country_from_location(text: &str) -> Option<&'static str> {
    let tables = tables();
    if let Some(code) = flag_country(text, tables) {
        return Some(code);
    }
    let parts: Vec<(&str, String)> = text
        .split([',', '|', '/', ';', '·', '•', '(', ')', '\n'])
        .map(str::trim)
        .filter_map(|raw| {
            let folded = fold(raw);
            (!folded.is_empty()).then_some((raw, folded))
        })
        .collect();
    if parts.is_empty() {
        return None;
    }

    // Region-level names, read from the end ("Paris, Texas", "Toronto, ON", "Lyon, France").
    for (index, (raw, folded)) in parts.iter().enumerate().rev() {
        let code_like = raw.len() <= 3 && raw.bytes().all(|b| b.is_ascii_uppercase());
        if code_like && index > 0 && places::US_STATE_CODES.contains(raw) {
            // "Berlin, DE" is Germany, "Dover, DE" is Delaware.
            let city_country = parts[..index].iter().find_map(|(_, f)| tables.city(f));
            if city_country.is_some_and(|c| c == *raw) {
                return tables.code(raw);
            }
            return Some("US");
        }
        // Georgia the state when it follows a place that is not in Georgia the country.
        if index > 0 && folded == "georgia" {
            let city_country = parts[..index].iter().find_map(|(_, f)| tables.city(f));
            return Some(if city_country == Some("GE") { "GE" } else { "US" });
        }
        if let Some(code) = tables.regions.get(folded.as_str()) {
            return Some(code);
        }
        if code_like {
            // Nicknames first: "LA" is Los Angeles far more often than Laos.
            if let Some(code) = tables.curated.get(folded.as_str()) {
                return Some(code);
            }
            if let Some(code) = tables.iso_codes.get(*raw) {
                return Some(code);
            }
        }
    }
    // A whole part that is a city.
    for (_, folded) in &parts {
        if let Some(code) = tables.city(folded) {
            return Some(code);
        }
    }
    // Abbreviations written in capitals inside a phrase ("Living in LA", "NYC based").
    for word in text.split(|c: char| !c.is_alphanumeric()) {
        let letters = word.chars().count();
        if (2..=4).contains(&letters) && word.chars().all(|c| c.is_ascii_uppercase()) {
            let folded = fold(word);
            if let Some(code) = tables.curated.get(&folded).or_else(|| tables.regions.get(&folded)) {
                return Some(code);
            }
        }
    }
    // Names inside a longer phrase ("Living in Berlin", "somewhere in France"), longest
    // first. Only country names and the curated places: the full gazetteer has towns named
    // like ordinary words, and short names are too easily words too.
    for (_, folded) in &parts {
        let words: Vec<&str> = folded.split(' ').collect();
        for len in (1..=words.len().min(4)).rev() {
            for window in words.windows(len) {
                let phrase = window.join(" ");
                if phrase.chars().count() < 4 {
                    continue;
                }
                if let Some(code) = tables.regions.get(&phrase).or_else(|| tables.curated.get(&phrase)) {
                    return Some(code);
                }
            }
        }
    }
    None
}

struct Tables {
    boundaries: Option<CountryBoundaries>,
    /// Every ISO alpha-2 code, sorted, so that answers can be `&'static str`.
    codes: Vec<&'static str>,
    /// Country names (all languages keshvar has), states and provinces, folded.
    regions: FxHashMap<String, &'static str>,
    /// Alpha-2 and alpha-3 codes in upper case ("BR", "BRA", and "UK" for GB).
    iso_codes: FxHashMap<String, &'static str>,
    /// Curated places, folded.
    curated: FxHashMap<String, &'static str>,
    /// Gazetteer cities, folded, with the best-ranked country for each name.
    cities: FxHashMap<String, (&'static str, usize)>,
}

impl Tables {
    /// The canonical code, with the spec's mapping of Hong Kong and Taiwan to China.
    fn code(&self, code: &str) -> Option<&'static str> {
        let code = match code {
            "HK" | "TW" => "CN",
            "UK" => "GB",
            other => other,
        };
        let index = self.codes.binary_search(&code).ok()?;
        Some(self.codes[index])
    }

    fn city(&self, folded: &str) -> Option<&'static str> {
        self.curated.get(folded).copied().or_else(|| self.cities.get(folded).map(|&(c, _)| c))
    }
}

fn tables() -> &'static Tables {
    static TABLES: OnceLock<Tables> = OnceLock::new();
    TABLES.get_or_init(build)
}

fn build() -> Tables {
    let mut names: Vec<String> =
        keshvar::CountryIterator::new().map(|c| c.alpha2().to_string()).collect();
    names.sort();
    names.dedup();
    // ~250 two-letter strings, leaked once per process so lookups can hand out `&'static str`.
    let codes: Vec<&'static str> =
        names.into_iter().map(|c| &*Box::leak(c.into_boxed_str())).collect();
    let statics: FxHashMap<&str, &'static str> = codes.iter().map(|&c| (c, c)).collect();
    let canon = |code: &str| -> Option<&'static str> {
        let code = match code {
            "HK" | "TW" => "CN",
            other => other,
        };
        statics.get(code).copied()
    };

    let mut regions: FxHashMap<String, &'static str> = FxHashMap::default();
    let mut iso_codes: FxHashMap<String, &'static str> = FxHashMap::default();
    let mut translations = Vec::new();
    for country in keshvar::CountryIterator::new() {
        let Some(code) = canon(&country.alpha2().to_string()) else { continue };
        iso_codes.insert(country.alpha2().to_string(), code);
        iso_codes.insert(country.alpha3().to_string(), code);
        let english =
            [country.iso_short_name(), country.iso_long_name()].into_iter().chain(country.unofficial_name_list().iter().copied());
        for name in english {
            regions.entry(fold(name)).or_insert(code);
        }
        for name in country.translations().values() {
            translations.push((fold(name), code));
        }
    }
    // English names first: a translation never takes over an English name.
    for (name, code) in translations {
        if name.chars().count() >= 3 {
            regions.entry(name).or_insert(code);
        }
    }
    iso_codes.insert("UK".into(), statics["GB"]);
    for &(name, code) in places::REGIONS {
        if let Some(code) = canon(code) {
            regions.insert(fold(name), code);
        }
    }

    let mut curated = FxHashMap::default();
    for &(name, code) in places::CITIES {
        if let Some(code) = canon(code) {
            curated.insert(fold(name), code);
        }
    }

    let mut cities: FxHashMap<String, (&'static str, usize)> = FxHashMap::default();
    let mut rank_in_country: FxHashMap<&str, usize> = FxHashMap::default();
    for city in cities::all() {
        let rank = rank_in_country.entry(city.country).or_insert(0);
        *rank += 1;
        let Some(code) = country_code_of(city.country, &regions) else { continue };
        let entry = cities.entry(fold(city.city)).or_insert((code, *rank));
        if *rank < entry.1 {
            *entry = (code, *rank);
        }
    }

    Tables {
        boundaries: CountryBoundaries::from_reader(BOUNDARIES_ODBL_360X180).ok(),
        codes,
        regions,
        iso_codes,
        curated,
        cities,
    }
}

/// The `cities` crate names countries in English, a few in older or list-style forms.
fn country_code_of(name: &str, regions: &FxHashMap<String, &'static str>) -> Option<&'static str> {
    let fixed = match name {
        "Gambia, The" => "Gambia",
        "Korea, North" => "North Korea",
        "Korea, South" => "South Korea",
        "Nepa" => "Nepal",
        "Macedonia" => "North Macedonia",
        "Swaziland" => "Eswatini",
        other => other,
    };
    regions.get(fold(fixed).as_str()).copied()
}

/// Lower case, accents removed, punctuation to spaces, spaces collapsed, leading "the " gone:
/// "São Paulo" and "sao paulo" meet, as do "U.K." and "u k".
pub(crate) fn fold(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut pending_space = false;
    for c in text.nfd() {
        if unicode_normalization::char::is_combining_mark(c) {
            continue;
        }
        if c.is_alphanumeric() {
            if pending_space && !out.is_empty() {
                out.push(' ');
            }
            pending_space = false;
            out.extend(c.to_lowercase());
        } else if c != '\'' && c != '\u{2019}' {
            pending_space = true;
        }
    }
    match out.strip_prefix("the ") {
        Some(rest) => rest.to_string(),
        None => out,
    }
}

/// The first flag emoji (a pair of regional indicator symbols) naming a known country.
fn flag_country(text: &str, tables: &Tables) -> Option<&'static str> {
    const A: u32 = 0x1F1E6;
    let indicator = |c: char| (A..A + 26).contains(&(c as u32)).then(|| (b'A' + (c as u32 - A) as u8) as char);
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        let Some(first) = indicator(c) else { continue };
        let Some(second) = chars.peek().copied().and_then(indicator) else { continue };
        chars.next();
        let code: String = [first, second].into_iter().collect();
        if let Some(code) = tables.code(&code) {
            return Some(code);
        }
    }
    None
}

#[cfg(test)]
mod tests;

/// The ISO 3166 numeric code (as three digits, the key world maps use) and the short English name
/// of an alpha-2 country code.
pub fn country_info(alpha2: &str) -> Option<(&'static str, &'static str)> {
    let code = keshvar::Alpha2::try_from(alpha2.to_ascii_uppercase().as_str()).ok()?;
    let c = keshvar::Country::from(code);
    Some((c.number(), c.iso_short_name()))
}

#[cfg(test)]
mod country_info_tests {
    #[test]
    fn numeric_codes_and_names() {
        assert_eq!(super::country_info("us").map(|c| c.0), Some("840"));
        assert_eq!(super::country_info("GB").map(|c| c.0), Some("826"));
        assert!(super::country_info("ZZ").is_none());
    }
}
