//! The stable error codes of Hark's API: one enum instead of string literals. Each code is the
//! `snake_case` string of the JSON error body `{"error": {"code", "message"}}`; the API gives each
//! code one HTTP status (hark-api's error module; docs/api.md lists them all).

/// An error code. Adding one: a variant here, its status in hark-api's `error::status`, its row
/// in docs/api.md (a test checks the table).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Code {
    AlreadySetUp,
    BackfillInProgress,
    Busy,
    Conflict,
    ConnectorIncomplete,
    CsrfFailed,
    CustomUrlTaken,
    DestinationNotSet,
    EmptyFile,
    ExportNotReady,
    Forbidden,
    Internal,
    InvalidBaseUrl,
    InvalidChart,
    InvalidChoice,
    InvalidColumns,
    InvalidContentType,
    InvalidCountry,
    InvalidCredentials,
    InvalidCustomUrl,
    InvalidDate,
    InvalidEmail,
    InvalidJson,
    InvalidKey,
    InvalidLanguage,
    InvalidMapping,
    InvalidMode,
    InvalidName,
    InvalidPassword,
    InvalidPlatform,
    InvalidPostKey,
    InvalidQuery,
    InvalidRange,
    InvalidSentiment,
    InvalidTagColor,
    InvalidUrls,
    InvalidUsers,
    InvalidVolumeLimit,
    KeywordTooLong,
    MailFailed,
    MailNotConfigured,
    NoConnector,
    NoPosts,
    NotFound,
    PayloadTooLarge,
    PlatformLocked,
    PlatformsRequired,
    PrivateAddress,
    RateLimited,
    SearchTermTooLong,
    SearchTermsRequired,
    SheetsNotConfigured,
    TagExists,
    TagNameRequired,
    TagNameTooLong,
    TitleTooLong,
    TooManyBuckets,
    TooManyIgnored,
    TooManyItems,
    TooManyKeywords,
    TooManyPosts,
    TooManyRows,
    TooManySearches,
    TooManySubtrackers,
    TrackerNotFound,
    TrackerTooLarge,
    TrialExpired,
    Unauthorized,
    UnknownField,
    UnknownTag,
    UpgradeRequired,
    ValidationFailed,
    ValueTooLong,
}

impl Code {
    /// Every code, in the order of their names.
    pub const ALL: &'static [Code] = &[Self::AlreadySetUp, Self::BackfillInProgress, Self::Busy, Self::Conflict, Self::ConnectorIncomplete, Self::CsrfFailed, Self::CustomUrlTaken, Self::DestinationNotSet, Self::EmptyFile, Self::ExportNotReady, Self::Forbidden, Self::Internal, Self::InvalidBaseUrl, Self::InvalidChart, Self::InvalidChoice, Self::InvalidColumns, Self::InvalidContentType, Self::InvalidCountry, Self::InvalidCredentials, Self::InvalidCustomUrl, Self::InvalidDate, Self::InvalidEmail, Self::InvalidJson, Self::InvalidKey, Self::InvalidLanguage, Self::InvalidMapping, Self::InvalidMode, Self::InvalidName, Self::InvalidPassword, Self::InvalidPlatform, Self::InvalidPostKey, Self::InvalidQuery, Self::InvalidRange, Self::InvalidSentiment, Self::InvalidTagColor, Self::InvalidUrls, Self::InvalidUsers, Self::InvalidVolumeLimit, Self::KeywordTooLong, Self::MailFailed, Self::MailNotConfigured, Self::NoConnector, Self::NoPosts, Self::NotFound, Self::PayloadTooLarge, Self::PlatformLocked, Self::PlatformsRequired, Self::PrivateAddress, Self::RateLimited, Self::SearchTermTooLong, Self::SearchTermsRequired, Self::SheetsNotConfigured, Self::TagExists, Self::TagNameRequired, Self::TagNameTooLong, Self::TitleTooLong, Self::TooManyBuckets, Self::TooManyIgnored, Self::TooManyItems, Self::TooManyKeywords, Self::TooManyPosts, Self::TooManyRows, Self::TooManySearches, Self::TooManySubtrackers, Self::TrackerNotFound, Self::TrackerTooLarge, Self::TrialExpired, Self::Unauthorized, Self::UnknownField, Self::UnknownTag, Self::UpgradeRequired, Self::ValidationFailed, Self::ValueTooLong];

    pub const fn as_str(self) -> &'static str {
        match self {
            Self::AlreadySetUp => "already_set_up",
            Self::BackfillInProgress => "backfill_in_progress",
            Self::Busy => "busy",
            Self::Conflict => "conflict",
            Self::ConnectorIncomplete => "connector_incomplete",
            Self::CsrfFailed => "csrf_failed",
            Self::CustomUrlTaken => "custom_url_taken",
            Self::DestinationNotSet => "destination_not_set",
            Self::EmptyFile => "empty_file",
            Self::ExportNotReady => "export_not_ready",
            Self::Forbidden => "forbidden",
            Self::Internal => "internal",
            Self::InvalidBaseUrl => "invalid_base_url",
            Self::InvalidChart => "invalid_chart",
            Self::InvalidChoice => "invalid_choice",
            Self::InvalidColumns => "invalid_columns",
            Self::InvalidContentType => "invalid_content_type",
            Self::InvalidCountry => "invalid_country",
            Self::InvalidCredentials => "invalid_credentials",
            Self::InvalidCustomUrl => "invalid_custom_url",
            Self::InvalidDate => "invalid_date",
            Self::InvalidEmail => "invalid_email",
            Self::InvalidJson => "invalid_json",
            Self::InvalidKey => "invalid_key",
            Self::InvalidLanguage => "invalid_language",
            Self::InvalidMapping => "invalid_mapping",
            Self::InvalidMode => "invalid_mode",
            Self::InvalidName => "invalid_name",
            Self::InvalidPassword => "invalid_password",
            Self::InvalidPlatform => "invalid_platform",
            Self::InvalidPostKey => "invalid_post_key",
            Self::InvalidQuery => "invalid_query",
            Self::InvalidRange => "invalid_range",
            Self::InvalidSentiment => "invalid_sentiment",
            Self::InvalidTagColor => "invalid_tag_color",
            Self::InvalidUrls => "invalid_urls",
            Self::InvalidUsers => "invalid_users",
            Self::InvalidVolumeLimit => "invalid_volume_limit",
            Self::KeywordTooLong => "keyword_too_long",
            Self::MailFailed => "mail_failed",
            Self::MailNotConfigured => "mail_not_configured",
            Self::NoConnector => "no_connector",
            Self::NoPosts => "no_posts",
            Self::NotFound => "not_found",
            Self::PayloadTooLarge => "payload_too_large",
            Self::PlatformLocked => "platform_locked",
            Self::PlatformsRequired => "platforms_required",
            Self::PrivateAddress => "private_address",
            Self::RateLimited => "rate_limited",
            Self::SearchTermTooLong => "search_term_too_long",
            Self::SearchTermsRequired => "search_terms_required",
            Self::SheetsNotConfigured => "sheets_not_configured",
            Self::TagExists => "tag_exists",
            Self::TagNameRequired => "tag_name_required",
            Self::TagNameTooLong => "tag_name_too_long",
            Self::TitleTooLong => "title_too_long",
            Self::TooManyBuckets => "too_many_buckets",
            Self::TooManyIgnored => "too_many_ignored",
            Self::TooManyItems => "too_many_items",
            Self::TooManyKeywords => "too_many_keywords",
            Self::TooManyPosts => "too_many_posts",
            Self::TooManyRows => "too_many_rows",
            Self::TooManySearches => "too_many_searches",
            Self::TooManySubtrackers => "too_many_subtrackers",
            Self::TrackerNotFound => "tracker_not_found",
            Self::TrackerTooLarge => "tracker_too_large",
            Self::TrialExpired => "trial_expired",
            Self::Unauthorized => "unauthorized",
            Self::UnknownField => "unknown_field",
            Self::UnknownTag => "unknown_tag",
            Self::UpgradeRequired => "upgrade_required",
            Self::ValidationFailed => "validation_failed",
            Self::ValueTooLong => "value_too_long",
        }
    }
}

impl std::fmt::Display for Code {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A code equals its string (`code == "invalid_query"`).
impl PartialEq<&str> for Code {
    fn eq(&self, other: &&str) -> bool {
        self.as_str() == *other
    }
}

impl serde::Serialize for Code {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.as_str())
    }
}

#[cfg(test)]
mod tests {
    use super::Code;

    #[test]
    fn codes_are_unique_snake_case_and_sorted() {
        let names: Vec<&str> = Code::ALL.iter().map(|c| c.as_str()).collect();
        let mut sorted = names.clone();
        sorted.sort_unstable();
        sorted.dedup();
        assert_eq!(names, sorted);
        assert!(names.iter().all(|n| n.bytes().all(|b| b.is_ascii_lowercase() || b == b'_')));
    }
}
