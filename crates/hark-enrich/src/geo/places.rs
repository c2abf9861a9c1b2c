//! Place names the packaged sources lack: sub-national regions that settle "City, Region", and
//! nicknames and large cities missing from the `cities` list. Plain geographic facts.

/// USPS codes of the states, DC and territories; "Austin, TX" means the US.
pub(super) const US_STATE_CODES: &[&str] = &[
    "AL", "AK", "AZ", "AR", "CA", "CO", "CT", "DE", "FL", "GA", "HI", "ID", "IL", "IN", "IA",
    "KS", "KY", "LA", "ME", "MD", "MA", "MI", "MN", "MS", "MO", "MT", "NE", "NV", "NH", "NJ",
    "NM", "NY", "NC", "ND", "OH", "OK", "OR", "PA", "RI", "SC", "SD", "TN", "TX", "UT", "VT",
    "VA", "WA", "WV", "WI", "WY", "DC",
];

/// Regions and alternative country names, matched as a whole part ("…, Ontario") or inside a
/// phrase. Later entries override the packaged country names, so keep this list unambiguous.
pub(super) const REGIONS: &[(&str, &str)] = &[
    // United Kingdom and its nations.
    ("UK", "GB"), ("U.K.", "GB"), ("United Kingdom", "GB"), ("Great Britain", "GB"),
    ("Britain", "GB"), ("England", "GB"), ("Scotland", "GB"), ("Wales", "GB"),
    ("Northern Ireland", "GB"), ("Cymru", "GB"),
    // United States.
    ("USA", "US"), ("U.S.A.", "US"), ("U.S.", "US"), ("United States", "US"),
    ("United States of America", "US"), ("America", "US"), ("Estados Unidos", "US"),
    ("Alabama", "US"), ("Alaska", "US"), ("Arizona", "US"), ("Arkansas", "US"),
    ("California", "US"), ("Colorado", "US"), ("Connecticut", "US"), ("Delaware", "US"),
    ("Florida", "US"), ("Hawaii", "US"), ("Idaho", "US"), ("Illinois", "US"),
    ("Indiana", "US"), ("Iowa", "US"), ("Kansas", "US"), ("Kentucky", "US"),
    ("Louisiana", "US"), ("Maine", "US"), ("Maryland", "US"), ("Massachusetts", "US"),
    ("Michigan", "US"), ("Minnesota", "US"), ("Mississippi", "US"), ("Missouri", "US"),
    ("Montana", "US"), ("Nebraska", "US"), ("Nevada", "US"), ("New Hampshire", "US"),
    ("New Jersey", "US"), ("New Mexico", "US"), ("New York", "US"), ("North Carolina", "US"),
    ("North Dakota", "US"), ("Ohio", "US"), ("Oklahoma", "US"), ("Oregon", "US"),
    ("Pennsylvania", "US"), ("Rhode Island", "US"), ("South Carolina", "US"),
    ("South Dakota", "US"), ("Tennessee", "US"), ("Texas", "US"), ("Utah", "US"),
    ("Vermont", "US"), ("Virginia", "US"), ("West Virginia", "US"), ("Wisconsin", "US"),
    ("Wyoming", "US"), ("District of Columbia", "US"), ("Puerto Rico", "PR"),
    // Canada.
    ("Ontario", "CA"), ("Quebec", "CA"), ("British Columbia", "CA"), ("Alberta", "CA"),
    ("Manitoba", "CA"), ("Saskatchewan", "CA"), ("Nova Scotia", "CA"),
    ("New Brunswick", "CA"), ("Newfoundland", "CA"), ("Prince Edward Island", "CA"),
    ("Yukon", "CA"), ("ON", "CA"), ("QC", "CA"), ("BC", "CA"), ("AB", "CA"), ("MB", "CA"),
    ("SK", "CA"), ("NS", "CA"), ("NB", "CA"), ("NL", "CA"), ("PEI", "CA"),
    // Australia.
    ("New South Wales", "AU"), ("NSW", "AU"), ("Queensland", "AU"), ("QLD", "AU"),
    ("Tasmania", "AU"), ("Western Australia", "AU"), ("South Australia", "AU"),
    // China, with Hong Kong and Taiwan counted as China.
    ("Hong Kong", "CN"), ("Taiwan", "CN"), ("Macau", "MO"), ("PRC", "CN"),
    // Other common short or local forms.
    ("UAE", "AE"), ("Emirates", "AE"), ("KSA", "SA"), ("Holland", "NL"), ("Czechia", "CZ"),
    ("Brasil", "BR"), ("Deutschland", "DE"), ("España", "ES"), ("Italia", "IT"),
    ("México", "MX"), ("Türkiye", "TR"), ("Nederland", "NL"), ("Россия", "RU"),
    ("Naija", "NG"), ("South Korea", "KR"), ("Korea", "KR"), ("North Korea", "KP"),
    ("Russia", "RU"), ("Vietnam", "VN"), ("Ivory Coast", "CI"), ("Congo", "CG"),
    ("DRC", "CD"), ("Palestine", "PS"),
];

/// Cities and nicknames, matched as a whole part or inside a phrase.
pub(super) const CITIES: &[(&str, &str)] = &[
    // United States.
    ("NYC", "US"), ("New York City", "US"), ("NY", "US"), ("Brooklyn", "US"),
    ("Manhattan", "US"), ("Queens", "US"), ("the Bronx", "US"), ("LA", "US"),
    ("Los Angeles", "US"), ("SF", "US"), ("San Francisco", "US"), ("Bay Area", "US"),
    ("SF Bay Area", "US"), ("Silicon Valley", "US"), ("SoCal", "US"), ("NorCal", "US"),
    ("DC", "US"), ("Washington DC", "US"), ("Washington D.C.", "US"), ("Chicago", "US"),
    ("Chi-town", "US"), ("Houston", "US"), ("Philly", "US"), ("Philadelphia", "US"),
    ("Vegas", "US"), ("Las Vegas", "US"), ("NOLA", "US"), ("New Orleans", "US"),
    ("ATL", "US"), ("Atlanta", "US"), ("Seattle", "US"), ("Boston", "US"), ("Miami", "US"),
    ("Dallas", "US"), ("Austin", "US"), ("Denver", "US"), ("Detroit", "US"),
    ("Portland", "US"), ("San Diego", "US"), ("Nashville", "US"), ("PHX", "US"),
    ("Phoenix", "US"), ("Minneapolis", "US"), ("Pittsburgh", "US"), ("Honolulu", "US"),
    // United Kingdom and Ireland.
    ("London", "GB"), ("Manchester", "GB"), ("Edinburgh", "GB"),
    ("Glasgow", "GB"), ("Cardiff", "GB"), ("Belfast", "GB"), ("Liverpool", "GB"),
    ("Leeds", "GB"), ("Bristol", "GB"), ("Dublin", "IE"),
    // Europe.
    ("Paris", "FR"), ("Marseille", "FR"), ("Lyon", "FR"), ("Berlin", "DE"),
    ("Munich", "DE"), ("München", "DE"), ("Hamburg", "DE"), ("Köln", "DE"), ("Cologne", "DE"),
    ("Madrid", "ES"), ("Barcelona", "ES"), ("Rome", "IT"), ("Roma", "IT"), ("Milan", "IT"),
    ("Milano", "IT"), ("Amsterdam", "NL"), ("Brussels", "BE"), ("Bruxelles", "BE"),
    ("Lisbon", "PT"), ("Lisboa", "PT"), ("Vienna", "AT"), ("Wien", "AT"), ("Zurich", "CH"),
    ("Geneva", "CH"), ("Stockholm", "SE"), ("Oslo", "NO"), ("Copenhagen", "DK"),
    ("Helsinki", "FI"), ("Warsaw", "PL"), ("Warszawa", "PL"), ("Prague", "CZ"),
    ("Praha", "CZ"), ("Budapest", "HU"), ("Athens", "GR"), ("Istanbul", "TR"),
    ("Moscow", "RU"), ("Москва", "RU"), ("Saint Petersburg", "RU"), ("Kyiv", "UA"),
    ("Kiev", "UA"), ("Belgrade", "RS"), ("Bucharest", "RO"), ("Bratislava", "SK"),
    // Asia and the Middle East.
    ("Tokyo", "JP"), ("東京", "JP"), ("Osaka", "JP"), ("Seoul", "KR"), ("서울", "KR"),
    ("Beijing", "CN"), ("北京", "CN"), ("Shanghai", "CN"), ("上海", "CN"), ("Shenzhen", "CN"),
    ("Hong Kong", "CN"), ("HK", "CN"), ("香港", "CN"), ("Taipei", "CN"), ("台北", "CN"),
    ("Mumbai", "IN"), ("Bombay", "IN"), ("Delhi", "IN"), ("New Delhi", "IN"),
    ("Bangalore", "IN"), ("Bengaluru", "IN"), ("Kolkata", "IN"), ("Chennai", "IN"),
    ("Hyderabad", "IN"), ("Karachi", "PK"), ("Lahore", "PK"), ("Dhaka", "BD"),
    ("Singapore", "SG"), ("Kuala Lumpur", "MY"), ("KL", "MY"), ("Jakarta", "ID"),
    ("Manila", "PH"), ("Bangkok", "TH"), ("Hanoi", "VN"), ("Ho Chi Minh City", "VN"),
    ("Saigon", "VN"), ("Dubai", "AE"), ("Abu Dhabi", "AE"), ("Riyadh", "SA"),
    ("Jeddah", "SA"), ("Doha", "QA"), ("Tel Aviv", "IL"), ("Jerusalem", "IL"),
    ("Tehran", "IR"),
    // Africa.
    ("Lagos", "NG"), ("Abuja", "NG"), ("Cairo", "EG"), ("Alexandria", "EG"),
    ("Nairobi", "KE"), ("Johannesburg", "ZA"), ("Joburg", "ZA"), ("Cape Town", "ZA"),
    ("Accra", "GH"), ("Addis Ababa", "ET"), ("Casablanca", "MA"), ("Kinshasa", "CD"),
    // Americas and Oceania.
    ("São Paulo", "BR"), ("Sampa", "BR"), ("Rio de Janeiro", "BR"), ("Rio", "BR"),
    ("Brasília", "BR"), ("Buenos Aires", "AR"), ("CABA", "AR"), ("Mexico City", "MX"),
    ("CDMX", "MX"), ("Ciudad de México", "MX"), ("Guadalajara", "MX"), ("Bogotá", "CO"),
    ("Medellín", "CO"), ("Lima", "PE"), ("Santiago", "CL"), ("Caracas", "VE"),
    ("Toronto", "CA"), ("Montreal", "CA"), ("Montréal", "CA"), ("Vancouver", "CA"),
    ("Calgary", "CA"), ("Ottawa", "CA"), ("Sydney", "AU"), ("Melbourne", "AU"),
    ("Brisbane", "AU"), ("Perth", "AU"), ("Auckland", "NZ"), ("Wellington", "NZ"),
];
