use super::*;

#[test]
fn coordinates() {
    assert_eq!(country_from_coordinates(51.5, -0.12), Some("GB"));
    assert_eq!(country_from_coordinates(40.7128, -74.0060), Some("US"));
    assert_eq!(country_from_coordinates(-23.55, -46.63), Some("BR"));
    assert_eq!(country_from_coordinates(48.8566, 2.3522), Some("FR"));
    assert_eq!(country_from_coordinates(35.68, 139.69), Some("JP"));
    assert_eq!(country_from_coordinates(22.3, 114.17), Some("CN"), "Hong Kong counts as China");
    assert_eq!(country_from_coordinates(25.03, 121.56), Some("CN"), "Taiwan counts as China");
    assert_eq!(country_from_coordinates(30.0, -40.0), None, "mid-Atlantic");
    assert_eq!(country_from_coordinates(f64::NAN, 0.0), None);
    assert_eq!(country_from_coordinates(91.0, 0.0), None);
    assert_eq!(country_from_coordinates(0.0, 181.0), None);
}

#[test]
fn city_and_country_pairs() {
    assert_eq!(country_from_location("London, UK"), Some("GB"));
    assert_eq!(country_from_location("London, Ontario"), Some("CA"));
    assert_eq!(country_from_location("Paris, France"), Some("FR"));
    assert_eq!(country_from_location("Paris, TX"), Some("US"));
    assert_eq!(country_from_location("Austin, TX"), Some("US"));
    assert_eq!(country_from_location("Berlin, DE"), Some("DE"));
    assert_eq!(country_from_location("Dover, DE"), Some("US"));
    assert_eq!(country_from_location("Atlanta, Georgia"), Some("US"));
    assert_eq!(country_from_location("Tbilisi, Georgia"), Some("GE"));
    assert_eq!(country_from_location("Toronto, ON"), Some("CA"));
    assert_eq!(country_from_location("Lyon | France"), Some("FR"));
}

#[test]
fn cities_and_nicknames_alone() {
    for (text, code) in [
        ("NYC", "US"),
        ("LA", "US"),
        ("SF", "US"),
        ("London", "GB"),
        ("Paris", "FR"),
        ("São Paulo", "BR"),
        ("sao paulo", "BR"),
        ("Tokyo", "JP"),
        ("Mumbai", "IN"),
        ("Lagos", "NG"),
        ("Nairobi", "KE"),
        ("Sydney", "AU"),
        ("Hong Kong", "CN"),
        ("Taipei", "CN"),
        ("Kraków", "PL"),
    ] {
        assert_eq!(country_from_location(text), Some(code), "{text}");
    }
}

#[test]
fn country_names_codes_and_languages() {
    for (text, code) in [
        ("United Kingdom", "GB"),
        ("Great Britain", "GB"),
        ("England", "GB"),
        ("Scotland", "GB"),
        ("Wales", "GB"),
        ("U.K.", "GB"),
        ("USA", "US"),
        ("United States", "US"),
        ("Brasil", "BR"),
        ("Deutschland", "DE"),
        ("Allemagne", "DE"),
        ("España", "ES"),
        ("日本", "JP"),
        ("Россия", "RU"),
        ("Taiwan", "CN"),
        ("BR", "BR"),
        ("FRA", "FR"),
    ] {
        assert_eq!(country_from_location(text), Some(code), "{text}");
    }
}

#[test]
fn flags() {
    assert_eq!(country_from_location("🇧🇷"), Some("BR"));
    assert_eq!(country_from_location("somewhere 🌍 🇯🇵✈️"), Some("JP"));
    assert_eq!(country_from_location("🇭🇰"), Some("CN"));
    assert_eq!(country_from_location("🇹🇼"), Some("CN"));
    assert_eq!(country_from_location("🇬🇧"), Some("GB"));
    // A lone indicator, or a pair that is no country, is nothing.
    assert_eq!(country_from_location("🇧"), None);
}

#[test]
fn phrases() {
    assert_eq!(country_from_location("Living in Berlin"), Some("DE"));
    assert_eq!(country_from_location("somewhere in France"), Some("FR"));
    assert_eq!(country_from_location("NYC based designer"), Some("US"));
    assert_eq!(country_from_location("in the UK for now"), Some("GB"));
}

#[test]
fn unknown_stays_unknown() {
    for text in ["", "   ", "Earth", "everywhere", "the internet", "she/her", "la la land", "in my head"] {
        assert_eq!(country_from_location(text), None, "{text:?}");
    }
}

#[test]
fn every_gazetteer_country_resolves() {
    let tables = tables();
    for city in cities::all() {
        assert!(country_code_of(city.country, &tables.regions).is_some(), "{}", city.country);
    }
}

proptest::proptest! {
    #[test]
    fn never_panics(text in "\\PC{0,120}", lat in -200.0f64..200.0, lon in -400.0f64..400.0) {
        if let Some(code) = country_from_location(&text) {
            proptest::prop_assert_eq!(code.len(), 2);
        }
        if let Some(code) = country_from_coordinates(lat, lon) {
            proptest::prop_assert_eq!(code.len(), 2);
        }
    }
}

#[test]
fn one_lookup_gives_country_and_region() {
    let (country, region) = place_from_coordinates(30.27, -97.74);
    assert_eq!(country, Some("US"));
    assert_eq!(region, region_from_coordinates(30.27, -97.74));
    assert_eq!(country, country_from_coordinates(30.27, -97.74));
    assert_eq!(place_from_coordinates(51.5, -0.12).0, Some("GB"));
    assert_eq!(place_from_coordinates(30.0, -40.0), (None, None), "mid-Atlantic");
    assert_eq!(place_from_coordinates(f64::NAN, 0.0), (None, None));
}
