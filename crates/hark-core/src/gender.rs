//! The gender the dashboard's Gender panel counts, guessed from an account's display name
//! (hark-enrich).

use serde::{Deserialize, Serialize};

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Gender {
    Male,
    Female,
    Unknown,
}

impl Gender {
    /// The stored value: `None` for an unknown gender (not counted).
    pub fn stored(self) -> Option<&'static str> {
        match self {
            Gender::Unknown => None,
            g => Some(g.as_str()),
        }
    }

    /// The gender a stored name names.
    pub fn parse(name: &str) -> Option<Gender> {
        [Gender::Male, Gender::Female, Gender::Unknown].into_iter().find(|g| g.as_str() == name)
    }

    pub fn as_str(self) -> &'static str {
        match self {
            Gender::Male => "male",
            Gender::Female => "female",
            Gender::Unknown => "unknown",
        }
    }
}


/// The stored name (`as_str`).
impl std::fmt::Display for Gender {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}
