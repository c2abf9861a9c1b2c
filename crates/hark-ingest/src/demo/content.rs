//! Words, names, places and sentence templates the demo generator draws from.
//!
//! Templates use slots filled at generation time: `{b}` a mention of the brand (plain name,
//! hashtag or @account), `{p}` a product, `{c}` a city, `{m}` another account, `{t}` one to three
//! hashtags, `{e}` an emoji that fits the sentence's tone, `{l}` a link.


/// Ways people name the brand; all of them match the demo criteria.
pub const BRAND_FORMS: &[&str] = &[
    "Kestrel Coffee", "Kestrel Coffee", "Kestrel Coffee", "@kestrelcoffee", "#KestrelCoffee", "#kestrelcoffee",
    "Kestrel Café", "kestrel coffee", "KESTREL COFFEE",
];

pub const PRODUCTS: &[&str] = &[
    "oat latte", "oat latte", "cold brew", "cold brew", "flat white", "espresso", "cortado", "cappuccino",
    "pumpkin spice latte", "matcha latte", "caramel macchiato", "mocha", "chai latte", "almond croissant",
    "banana bread", "nitro cold brew", "pour over", "single origin espresso", "iced americano",
];

/// Tone of a sentence; decides the emoji and, for English, how a lexicon scorer reads it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Tone {
    Positive,
    Neutral,
    Negative,
}

pub const EMOJI_POSITIVE: &[&str] = &["☕", "😍", "🙌", "✨", "❤️", "😊", "🔥", "🥰", "👌", "💯"];
pub const EMOJI_NEUTRAL: &[&str] = &["☕", "📍", "👀", "🤔", "", "", "☕️", "🥐"];
pub const EMOJI_NEGATIVE: &[&str] = &["😡", "😤", "👎", "🙄", "😞", "😒", "💸", ""];

pub const HASHTAGS_EN: &[&str] = &[
    "#coffee", "#coffeelover", "#latte", "#morningcoffee", "#barista", "#coffeetime", "#caffeine", "#cafe",
    "#coffeeaddict", "#espresso", "#coldbrew", "#latteart", "#mondaymotivation", "#breakfast", "#wfh",
];
pub const HASHTAGS_ES: &[&str] = &["#café", "#cafecito", "#barista", "#desayuno", "#coffee", "#lunes"];
pub const HASHTAGS_PT: &[&str] = &["#café", "#cafezinho", "#barista", "#bomdia", "#coffee", "#saopaulo"];
pub const HASHTAGS_FR: &[&str] = &["#café", "#cafe", "#barista", "#pausecafé", "#coffee", "#paris"];
pub const HASHTAGS_DE: &[&str] = &["#kaffee", "#kaffeeliebe", "#barista", "#frühstück", "#coffee", "#berlin"];
pub const HASHTAGS_JA: &[&str] = &["#コーヒー", "#カフェ", "#coffee", "#カフェ巡り", "#ラテアート"];

/// Templates per tone for one language. Off-topic ones do not name the brand.
pub struct Lang {
    pub code: &'static str,
    pub positive: &'static [&'static str],
    pub neutral: &'static [&'static str],
    pub negative: &'static [&'static str],
    pub off_topic: &'static [&'static str],
    pub hashtags: &'static [&'static str],
}

pub const EN: Lang = Lang {
    code: "en",
    positive: &[
        "I absolutely love the {p} at {b}! Best way to start the day {e} {t}",
        "{b} never disappoints. The {p} today was perfect {e}",
        "Shoutout to the amazing baristas at {b} in {c}, so friendly and fast {e} {t}",
        "Honestly the best {p} in {c} is at {b}. Great vibes, great coffee {e}",
        "New favorite spot: {b}. The {p} is incredible and the staff are lovely {e} {t}",
        "Treated myself to a {p} from {b} and it made my whole morning better {e}",
        "{b} just gets it. Smooth, rich and not too sweet {p} {e} {t}",
        "Thank you {b} for the free refill today, you made a tired nurse very happy {e}",
        "Working from {b} today. Good wifi, great {p}, happy me {e} {t}",
        "That {p} from {b} is so good I went back for a second one {e} {l}",
        "{m} you have to try the {p} at {b}, it's wonderful {e}",
        "Love love love the new seasonal menu at {b} {e} {t}",
    ],
    neutral: &[
        "Grabbing a {p} at {b} before the meeting {e}",
        "Anyone know if {b} in {c} opens early on Sundays?",
        "{b} is doing a new loyalty card thing, details here {l}",
        "Is the {p} at {b} made with real espresso or a syrup base? {t}",
        "Line at {b} is out the door again this morning {e}",
        "Meeting {m} at {b} on Main Street at 3",
        "{b} changed the cup sizes. Small is now 10 oz apparently {t}",
        "Ordered a {p} from {b} on the app, pickup in 5 minutes",
        "Third time at {b} this week, which means I should probably get the loyalty card {e}",
        "So {b} or the place across the street? {t}",
    ],
    negative: &[
        "Waited 25 minutes for a {p} at {b}. Terrible service, never again {e}",
        "{b} got my order wrong for the third time this week. So frustrating {e}",
        "Why is a {p} at {b} now $7? Ridiculous prices {e} {t}",
        "The {p} at {b} in {c} tasted burnt and awful today {e}",
        "{b} app keeps crashing when I try to pay. Useless {e}",
        "Disappointed with {b}. Cold food, rude staff and a dirty table {e}",
        "Not impressed by the new {p} at {b}, way too sweet and bland {e}",
        "{b} please fix your mobile ordering, it is broken again {e} {t}",
    ],
    off_topic: &[
        "Third cup of coffee today and it's not even noon {e} {t}",
        "Nothing beats a {p} on a rainy morning {e} {t}",
        "Trying the new {p} at Harbor Roasters in {c} today {t}",
        "Spotted a kestrel hovering over the field this morning, beautiful bird #birdwatching",
        "Home espresso setup finally dialed in, {p} tastes amazing {e} {t}",
        "Does anyone else feel like coffee prices doubled this year? {t}",
    ],
    hashtags: HASHTAGS_EN,
};

pub const ES: Lang = Lang {
    code: "es",
    positive: &[
        "Me encanta el {p} de {b}, el mejor de {c} {e} {t}",
        "{b} nunca falla. Un café delicioso y un servicio excelente {e}",
        "Qué buen ambiente en {b} hoy, los baristas son muy amables {e} {t}",
    ],
    neutral: &[
        "Tomando un {p} en {b} antes de la reunión {e}",
        "¿Alguien sabe a qué hora abre {b} en {c} los domingos? {t}",
    ],
    negative: &[
        "Esperé 20 minutos por un {p} en {b}. Pésimo servicio {e}",
        "El {p} de {b} está carísimo y sabe a quemado {e} {t}",
    ],
    off_topic: &["Nada como un cafecito por la mañana {e} {t}", "Otro lunes, otro café {e} {t}"],
    hashtags: HASHTAGS_ES,
};

pub const PT: Lang = Lang {
    code: "pt",
    positive: &[
        "Amo o {p} da {b}, o melhor café de {c} {e} {t}",
        "{b} nunca decepciona. Atendimento ótimo e café maravilhoso {e}",
        "Que lugar incrível a {b}, voltarei com certeza {e} {t}",
    ],
    neutral: &[
        "Tomando um {p} na {b} antes da reunião {e}",
        "Alguém sabe se a {b} de {c} abre cedo no domingo? {t}",
    ],
    negative: &[
        "Esperei 30 minutos por um {p} na {b}. Atendimento péssimo {e}",
        "O {p} da {b} está caro demais e veio frio {e} {t}",
    ],
    off_topic: &["Nada melhor que um cafezinho de manhã {e} {t}", "Segunda-feira só com muito café {e} {t}"],
    hashtags: HASHTAGS_PT,
};

pub const FR: Lang = Lang {
    code: "fr",
    positive: &[
        "J'adore le {p} de {b}, le meilleur café de {c} {e} {t}",
        "{b} ne déçoit jamais. Service adorable et café délicieux {e}",
        "Super moment chez {b} aujourd'hui, les baristas sont géniaux {e} {t}",
    ],
    neutral: &[
        "Un {p} chez {b} avant la réunion {e}",
        "Quelqu'un sait si {b} à {c} ouvre tôt le dimanche ? {t}",
    ],
    negative: &[
        "Vingt minutes d'attente pour un {p} chez {b}. Service nul {e}",
        "Le {p} de {b} est beaucoup trop cher et franchement mauvais {e} {t}",
    ],
    off_topic: &["Rien de mieux qu'un café le matin {e} {t}", "Encore un lundi, encore un café {e} {t}"],
    hashtags: HASHTAGS_FR,
};

pub const DE: Lang = Lang {
    code: "de",
    positive: &[
        "Ich liebe den {p} von {b}, der beste Kaffee in {c} {e} {t}",
        "{b} enttäuscht nie. Freundliches Personal und richtig guter Kaffee {e}",
        "Tolle Atmosphäre heute bei {b}, komme sicher wieder {e} {t}",
    ],
    neutral: &[
        "Schnell noch einen {p} bei {b} vor dem Meeting {e}",
        "Weiß jemand, ob {b} in {c} sonntags früh aufmacht? {t}",
    ],
    negative: &[
        "Zwanzig Minuten auf einen {p} bei {b} gewartet. Schlechter Service {e}",
        "Der {p} bei {b} ist viel zu teuer und schmeckt verbrannt {e} {t}",
    ],
    off_topic: &["Ohne Kaffee geht am Montag gar nichts {e} {t}", "Der erste Kaffee des Tages ist der beste {e} {t}"],
    hashtags: HASHTAGS_DE,
};

pub const JA: Lang = Lang {
    code: "ja",
    positive: &[
        "{b}の{p}が本当に美味しい！毎朝の楽しみです {e} {t}",
        "{c}の{b}、店員さんがとても親切で最高でした {e} {t}",
    ],
    neutral: &["会議の前に{b}で{p}を買いました {e}", "{c}の{b}は日曜日何時に開きますか？ {t}"],
    negative: &["{b}で{p}を25分も待たされました。残念です {e}", "{b}の{p}、値段が高すぎる {e} {t}"],
    off_topic: &["今日もコーヒーで一日が始まる {e} {t}", "雨の日は家でゆっくりコーヒー {e} {t}"],
    hashtags: HASHTAGS_JA,
};

/// A place people post from: the city, its coordinates and how profiles write it.
pub struct Place {
    pub city: &'static str,
    pub lat: f64,
    pub lon: f64,
    pub profile: &'static [&'static str],
}

/// A language community: its language, weight among authors, places and first names.
pub struct Locale {
    pub lang: &'static Lang,
    pub weight: u32,
    pub places: &'static [Place],
    pub female: &'static [&'static str],
    pub male: &'static [&'static str],
    pub surnames: &'static [&'static str],
}

const fn place(city: &'static str, lat: f64, lon: f64, profile: &'static [&'static str]) -> Place {
    Place { city, lat, lon, profile }
}

pub const LOCALES: &[Locale] = &[
    Locale {
        lang: &EN,
        weight: 44,
        places: &[
            place("New York", 40.7128, -74.0060, &["NYC", "New York, NY", "Brooklyn, NY", "🗽 NYC"]),
            place("Seattle", 47.6062, -122.3321, &["Seattle, WA", "Seattle", "PNW 🌲 Seattle, WA"]),
            place("Austin", 30.2672, -97.7431, &["Austin, TX", "ATX", "Austin, Texas"]),
            place("Chicago", 41.8781, -87.6298, &["Chicago, IL", "Chicago", "Chi-town, IL"]),
            place("San Francisco", 37.7749, -122.4194, &["San Francisco, CA", "SF Bay Area", "Oakland, CA"]),
            place("Los Angeles", 34.0522, -118.2437, &["Los Angeles, CA", "LA", "Santa Monica, CA"]),
            place("Portland", 45.5152, -122.6784, &["Portland, OR", "PDX"]),
            place("Toronto", 43.6532, -79.3832, &["Toronto, ON", "Toronto, Canada", "🇨🇦"]),
        ],
        female: &["Emily", "Sarah", "Jessica", "Ashley", "Megan", "Lauren", "Rachel", "Hannah", "Olivia", "Emma", "Sophia", "Chloe", "Grace", "Kate", "Lisa", "Susan", "Jennifer", "Amanda", "Nicole", "Laura"],
        male: &["Michael", "David", "James", "John", "Robert", "Daniel", "Matthew", "Chris", "Andrew", "Ryan", "Tyler", "Brandon", "Kevin", "Jason", "Eric", "Mark", "Steven", "Brian", "Justin", "Paul"],
        surnames: &["Smith", "Johnson", "Williams", "Brown", "Jones", "Miller", "Davis", "Wilson", "Anderson", "Taylor", "Thomas", "Moore", "Martin", "Lee", "Clark", "Walker", "Hall", "Young", "King", "Wright"],
    },
    Locale {
        lang: &EN,
        weight: 16,
        places: &[
            place("London", 51.5074, -0.1278, &["London, UK", "London", "London, England", "🇬🇧"]),
            place("Manchester", 53.4808, -2.2426, &["Manchester, UK", "Manchester"]),
            place("Edinburgh", 55.9533, -3.1883, &["Edinburgh, Scotland", "Edinburgh"]),
            place("Dublin", 53.3498, -6.2603, &["Dublin, Ireland", "Dublin 🇮🇪"]),
            place("Sydney", -33.8688, 151.2093, &["Sydney, Australia", "Sydney, NSW", "🇦🇺"]),
            place("Melbourne", -37.8136, 144.9631, &["Melbourne, VIC", "Melbourne, Australia"]),
        ],
        female: &["Charlotte", "Amelia", "Isla", "Poppy", "Lucy", "Holly", "Sophie", "Jessica", "Molly", "Ellie", "Katie", "Claire"],
        male: &["Oliver", "George", "Harry", "Jack", "Charlie", "Thomas", "William", "Alfie", "Liam", "Callum", "Owen", "Rhys"],
        surnames: &["Evans", "Roberts", "Hughes", "Edwards", "Green", "Wood", "Harris", "Lewis", "Murphy", "Kelly", "Campbell", "Stewart"],
    },
    Locale {
        lang: &ES,
        weight: 11,
        places: &[
            place("Madrid", 40.4168, -3.7038, &["Madrid, España", "Madrid", "🇪🇸"]),
            place("Barcelona", 41.3874, 2.1686, &["Barcelona", "Barcelona, Catalunya"]),
            place("Ciudad de México", 19.4326, -99.1332, &["CDMX", "Ciudad de México", "México 🇲🇽"]),
            place("Buenos Aires", -34.6037, -58.3816, &["Buenos Aires, Argentina", "BA 🇦🇷"]),
            place("Bogotá", 4.7110, -74.0721, &["Bogotá, Colombia", "Bogotá"]),
        ],
        female: &["María", "Lucía", "Sofía", "Carmen", "Laura", "Paula", "Elena", "Valentina", "Camila", "Isabel"],
        male: &["Carlos", "Javier", "Alejandro", "Miguel", "Diego", "Pablo", "Sergio", "Andrés", "Luis", "Jorge"],
        surnames: &["García", "Fernández", "González", "Rodríguez", "López", "Martínez", "Sánchez", "Pérez", "Gómez", "Díaz"],
    },
    Locale {
        lang: &PT,
        weight: 8,
        places: &[
            place("São Paulo", -23.5505, -46.6333, &["São Paulo", "São Paulo, Brasil", "SP 🇧🇷", "Sao Paulo, Brazil"]),
            place("Rio de Janeiro", -22.9068, -43.1729, &["Rio de Janeiro", "Rio de Janeiro, Brasil"]),
            place("Lisboa", 38.7223, -9.1393, &["Lisboa, Portugal", "Lisbon", "🇵🇹"]),
        ],
        female: &["Ana", "Beatriz", "Juliana", "Fernanda", "Mariana", "Camila", "Larissa", "Gabriela"],
        male: &["João", "Pedro", "Lucas", "Gabriel", "Rafael", "Bruno", "Thiago", "Felipe"],
        surnames: &["Silva", "Santos", "Oliveira", "Souza", "Lima", "Pereira", "Costa", "Almeida"],
    },
    Locale {
        lang: &FR,
        weight: 7,
        places: &[
            place("Paris", 48.8566, 2.3522, &["Paris, France", "Paris", "🇫🇷"]),
            place("Lyon", 45.7640, 4.8357, &["Lyon, France", "Lyon"]),
            place("Montréal", 45.5017, -73.5673, &["Montréal, QC", "Montreal, Canada"]),
        ],
        female: &["Camille", "Léa", "Chloé", "Manon", "Julie", "Claire", "Sophie", "Céline"],
        male: &["Pierre", "Louis", "Hugo", "Thomas", "Nicolas", "Julien", "Antoine", "Mathieu"],
        surnames: &["Martin", "Bernard", "Dubois", "Durand", "Lefebvre", "Moreau", "Laurent", "Girard"],
    },
    Locale {
        lang: &DE,
        weight: 7,
        places: &[
            place("Berlin", 52.5200, 13.4050, &["Berlin", "Berlin, Deutschland", "🇩🇪"]),
            place("München", 48.1351, 11.5820, &["München", "Munich, Germany"]),
            place("Hamburg", 53.5511, 9.9937, &["Hamburg", "Hamburg, Germany"]),
            place("Wien", 48.2082, 16.3738, &["Wien, Österreich", "Vienna, Austria"]),
        ],
        female: &["Anna", "Lena", "Julia", "Katharina", "Laura", "Sabine", "Claudia", "Nina"],
        male: &["Lukas", "Felix", "Jonas", "Maximilian", "Stefan", "Tobias", "Florian", "Markus"],
        surnames: &["Müller", "Schmidt", "Schneider", "Fischer", "Weber", "Meyer", "Wagner", "Becker"],
    },
    Locale {
        lang: &JA,
        weight: 5,
        places: &[
            place("東京", 35.6762, 139.6503, &["Tokyo, Japan", "東京", "🇯🇵"]),
            place("大阪", 34.6937, 135.5023, &["Osaka, Japan", "大阪"]),
        ],
        female: &["Yuki", "Sakura", "Aiko", "Yui", "Haruka", "Misaki"],
        male: &["Hiroshi", "Takashi", "Kenji", "Haruto", "Daiki", "Takumi"],
        surnames: &["Sato", "Suzuki", "Takahashi", "Tanaka", "Watanabe", "Ito"],
    },
];

/// Accounts that are not people: the brand, outlets, competitors, fan and review pages.
pub struct Org {
    pub name: &'static str,
    pub username: &'static str,
    pub bio: &'static str,
}

pub const ORGS: &[Org] = &[
    Org { name: "Kestrel Coffee", username: "kestrelcoffee", bio: "Small-batch roasters since 2009. Good coffee for everyone." },
    Org { name: "Kestrel Coffee Support", username: "kestrelhelp", bio: "We're here to help, 7am-9pm ET." },
    Org { name: "Daily Grind News", username: "dailygrindnews", bio: "Coffee industry news." },
    Org { name: "Barista Magazine Online", username: "baristamagonline", bio: "For the coffee professional." },
    Org { name: "Harbor Roasters", username: "harborroasters", bio: "Coffee roasted by the sea." },
    Org { name: "Coffee Deals Daily", username: "coffeedealsdaily", bio: "The best coffee deals, every day." },
    Org { name: "City Food Guide", username: "cityfoodguide", bio: "Where to eat and drink this week." },
];

pub struct Outlet {
    pub name: &'static str,
    pub domain: &'static str,
    pub section: &'static str,
}

pub const NEWS_OUTLETS: &[Outlet] = &[
    Outlet { name: "The Morning Ledger", domain: "morningledger.com", section: "business" },
    Outlet { name: "Beverage Wire", domain: "beveragewire.com", section: "news" },
    Outlet { name: "Metro Business Journal", domain: "metrobizjournal.com", section: "retail" },
    Outlet { name: "Daily Grind News", domain: "dailygrindnews.com", section: "industry" },
    Outlet { name: "Food & Trade Weekly", domain: "foodandtrade.net", section: "companies" },
    Outlet { name: "The City Post", domain: "thecitypost.co.uk", section: "food-drink" },
];

pub const BLOG_HOSTS: &[&str] = &[
    "medium.com", "substack.com", "wordpress.com", "blogspot.com", "thecuppingroom.blog", "morningpourover.com",
];

pub const FORUMS: &[(&str, &str)] = &[
    ("reddit.com", "/r/Coffee/comments/"),
    ("reddit.com", "/r/espresso/comments/"),
    ("coffeegeek.com", "/forums/topic/"),
    ("home-barista.com", "/t/"),
];

pub const NEWS_TITLES: &[(&str, Tone)] = &[
    ("Kestrel Coffee to open 40 new stores in {c} next year", Tone::Positive),
    ("Kestrel Coffee shares slide after disappointing quarter", Tone::Negative),
    ("Kestrel Coffee raises drink prices for the second time this year", Tone::Negative),
    ("Kestrel Coffee launches plant-based menu across all locations", Tone::Positive),
    ("Kestrel Coffee baristas in {c} vote on union representation", Tone::Neutral),
    ("How Kestrel Coffee became the fastest-growing cafe chain", Tone::Positive),
    ("Kestrel Coffee recalls cold brew cans over packaging fault", Tone::Negative),
    ("Kestrel Coffee names new chief executive", Tone::Neutral),
];

pub const NEWS_LEADS: &[&str] = &[
    "The company said on Tuesday that demand for its {p} remained strong despite rising costs. $KSTL",
    "Analysts expect the chain to report results next month, with investors watching margins closely. $KSTL",
    "Customers in {c} reacted quickly, with many sharing their views on social media.",
    "The move follows a difficult year for the coffee industry, as bean prices hit record highs.",
];

pub const BLOG_TITLES: &[(&str, Tone)] = &[
    ("I tried every {p} at Kestrel Coffee so you don't have to", Tone::Neutral),
    ("Why Kestrel Coffee is my favorite place to work remotely", Tone::Positive),
    ("Kestrel Coffee vs Harbor Roasters: an honest comparison", Tone::Neutral),
    ("The sad decline of Kestrel Coffee", Tone::Negative),
    ("Brewing a Kestrel Coffee style {p} at home", Tone::Positive),
];

pub const FORUM_TITLES: &[(&str, Tone)] = &[
    ("Is the Kestrel Coffee {p} worth the price?", Tone::Neutral),
    ("Kestrel Coffee beans at home: grind settings?", Tone::Neutral),
    ("Anyone else think Kestrel Coffee went downhill?", Tone::Negative),
    ("Best Kestrel Coffee drink for a first timer?", Tone::Positive),
    ("Home espresso: which beans for a {p}?", Tone::Neutral),
];

pub const YOUTUBE_TITLES: &[(&str, Tone)] = &[
    ("Kestrel Coffee {p} review - worth it?", Tone::Neutral),
    ("Ranking EVERY drink at Kestrel Coffee", Tone::Positive),
    ("I worked as a Kestrel Coffee barista for a year (honest story)", Tone::Neutral),
    ("Making the Kestrel Coffee {p} at home | easy recipe", Tone::Positive),
    ("Kestrel Coffee's new menu is a disaster", Tone::Negative),
];

/// A burst: a short surge of posts about one event, with its hashtag and tone.
pub struct BurstKind {
    /// Read by the tests that look for bursts.
    #[cfg_attr(not(test), allow(dead_code))]
    pub hashtag: &'static str,
    pub tone: Tone,
    pub texts: &'static [&'static str],
}

pub const BURSTS: &[BurstKind] = &[
    BurstKind {
        hashtag: "#PumpkinSpiceIsBack",
        tone: Tone::Positive,
        texts: &[
            "Pumpkin spice latte is BACK at {b} and I am so happy {e} #PumpkinSpiceIsBack",
            "Finally! {b} brought back the pumpkin spice latte, best day of the year {e} #PumpkinSpiceIsBack {t}",
        ],
    },
    BurstKind {
        hashtag: "#KestrelAppDown",
        tone: Tone::Negative,
        texts: &[
            "Is the {b} app down for everyone? Can't order anything {e} #KestrelAppDown",
            "{b} mobile app broken again, lost my rewards points. Terrible {e} #KestrelAppDown",
        ],
    },
    BurstKind {
        hashtag: "#FreeCoffeeFriday",
        tone: Tone::Positive,
        texts: &[
            "Free {p} at {b} today! Love this {e} #FreeCoffeeFriday",
            "Thank you {b} for the free coffee, great idea {e} #FreeCoffeeFriday {t}",
        ],
    },
    BurstKind {
        hashtag: "#KestrelPrices",
        tone: Tone::Negative,
        texts: &[
            "{b} raised prices AGAIN? A {p} is now almost $8. Ridiculous {e} #KestrelPrices",
            "Done with {b}. The new prices are insane {e} #KestrelPrices",
        ],
    },
];

/// Instagram captions add a line of hashtags after the sentence.
pub const IG_TAIL: &[&str] = &[
    "#coffeegram #instacoffee #coffeeshop",
    "#latteart #cafelife #coffeeoftheday",
    "#butfirstcoffee #coffeetime #kestrelcoffee",
    "#weekendvibes #brunch #coffeelover",
];

pub const TWITTER_SOURCES: &[(&str, u32)] = &[
    ("Twitter for iPhone", 44),
    ("Twitter for Android", 30),
    ("Twitter Web App", 18),
    ("Twitter for iPad", 3),
    ("TweetDeck Web App", 2),
    ("Hootsuite Inc.", 2),
    ("Buffer", 1),
];
