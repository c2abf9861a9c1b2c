//! The type of a post for the post-type breakdown: original, reply or retweet.

use serde::{Deserialize, Serialize};

use crate::post::Post;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum PostType {
    Original,
    Reply,
    Retweet,
}

impl PostType {
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Original => "original",
            Self::Reply => "reply",
            Self::Retweet => "retweet",
        }
    }

    /// The type a stored name names.
    pub fn parse(name: &str) -> Option<PostType> {
        [Self::Original, Self::Reply, Self::Retweet].into_iter().find(|t| t.as_str() == name)
    }
}

/// A retweet is a retweet even when it shares a reply; a quote post is original content.
pub fn post_type(post: &Post) -> PostType {
    if post.flags.is_retweet {
        PostType::Retweet
    } else if post.flags.is_reply {
        PostType::Reply
    } else {
        PostType::Original
    }
}

/// The stored name (`as_str`).
impl std::fmt::Display for PostType {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Platform;

    #[test]
    fn types() {
        let mut p = Post::new(Platform::Twitter, "1", "x", 0);
        assert_eq!(post_type(&p), PostType::Original);
        p.flags.is_quote = true;
        assert_eq!(post_type(&p), PostType::Original);
        p.flags.is_reply = true;
        assert_eq!(post_type(&p).as_str(), "reply");
        p.flags.is_retweet = true;
        assert_eq!(post_type(&p), PostType::Retweet);
        assert_eq!(serde_json::to_value(PostType::Retweet).unwrap(), "retweet");
    }
}
