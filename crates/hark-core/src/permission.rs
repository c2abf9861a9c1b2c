use serde::{Deserialize, Serialize};

/// A caller's rank on one tracker. The order of the variants is the order of the ranks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Permission {
    NoAccess = 0,
    Viewer = 1,
    Editor = 2,
    Administrator = 3,
    Owner = 4,
}

impl Permission {
    pub fn rank(self) -> i64 {
        self as i64
    }

    pub fn from_rank(rank: i64) -> Option<Self> {
        Some(match rank {
            0 => Self::NoAccess,
            1 => Self::Viewer,
            2 => Self::Editor,
            3 => Self::Administrator,
            4 => Self::Owner,
            _ => return None,
        })
    }

    /// Editing is allowed at editor or above.
    pub fn can_edit(self) -> bool {
        self >= Self::Editor
    }

    pub fn can_view(self) -> bool {
        self >= Self::Viewer
    }

    /// Owners and administrators manage a tracker: settings, pause, share, tags.
    pub fn can_manage(self) -> bool {
        self >= Self::Administrator
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranks_follow_the_spec() {
        assert_eq!(Permission::NoAccess.rank(), 0);
        assert_eq!(Permission::Owner.rank(), 4);
        assert!(Permission::Editor.can_edit());
        assert!(!Permission::Viewer.can_edit());
        assert!(Permission::Administrator > Permission::Editor);
        for r in 0..5 {
            assert_eq!(Permission::from_rank(r).unwrap().rank(), r);
        }
        assert_eq!(Permission::from_rank(5), None);
    }
}
