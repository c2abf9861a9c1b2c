//! Secrets at rest: what an administrator uploads (a service account's private key) is sealed
//! with the server's secret key (ChaCha20-Poly1305, a random nonce per seal, the setting's name
//! as associated data so a sealed value cannot be moved to another setting) before it is stored.
//! The key comes from `--secret-key` / `HARK_SECRET_KEY` or a file in the data directory that the
//! first start writes; every node of a cluster needs the same key.

use std::io::Write;
use std::path::Path;

use base64::Engine;
use ring::aead::{Aad, LessSafeKey, Nonce, UnboundKey, CHACHA20_POLY1305, NONCE_LEN};
use ring::rand::{SecureRandom, SystemRandom};

/// The server's secret key (32 bytes).
#[derive(Clone)]
pub struct SecretKey([u8; 32]);

impl std::fmt::Debug for SecretKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("SecretKey(***)")
    }
}

#[derive(Debug, thiserror::Error)]
pub enum SecretError {
    #[error("the secret key must be 64 hexadecimal digits (32 bytes)")]
    BadKey,
    #[error("the sealed value cannot be opened with this server's secret key")]
    Unreadable,
    #[error("{0}")]
    Io(#[from] std::io::Error),
}

const ENGINE: base64::engine::GeneralPurpose = base64::engine::general_purpose::STANDARD;

impl SecretKey {
    /// The key's hexadecimal form (what `from_hex` reads and the key file holds).
    pub fn to_hex(&self) -> String {
        hex::encode(self.0)
    }

    /// Whether two keys are the same (compared as digests).
    pub fn same_as(&self, other: &Self) -> bool {
        use sha2::{Digest, Sha256};
        Sha256::digest(self.0) == Sha256::digest(other.0)
    }

    /// A key from its hexadecimal form.
    pub fn from_hex(s: &str) -> Result<Self, SecretError> {
        let bytes = hex::decode(s.trim()).map_err(|_| SecretError::BadKey)?;
        Ok(Self(bytes.try_into().map_err(|_| SecretError::BadKey)?))
    }

    /// The first 16 bytes of HMAC-SHA256 over `purpose`, a newline and `data`, in hexadecimal: a
    /// tag the server hands out with a value and later checks (the media proxy's addresses).
    pub fn tag(&self, purpose: &str, data: &[u8]) -> String {
        let key = ring::hmac::Key::new(ring::hmac::HMAC_SHA256, &self.0);
        let mut ctx = ring::hmac::Context::with_key(&key);
        ctx.update(purpose.as_bytes());
        ctx.update(b"\n");
        ctx.update(data);
        hex::encode(&ctx.sign().as_ref()[..16])
    }

    /// Whether `tag` is [`Self::tag`] of `data` (compared as digests, so the time taken says
    /// nothing about how much of a guess was right).
    pub fn tag_matches(&self, purpose: &str, data: &[u8], tag: &str) -> bool {
        use sha2::{Digest, Sha256};
        Sha256::digest(self.tag(purpose, data).as_bytes()) == Sha256::digest(tag.as_bytes())
    }

    /// A new random key (a server without a configured one keeps it for its lifetime).
    pub fn random() -> Self {
        let mut k = [0u8; 32];
        SystemRandom::new().fill(&mut k).expect("the system's random source");
        Self(k)
    }

    /// The key kept in `path`, written there (readable by its owner only) when there is none.
    pub fn load_or_create(path: &Path) -> Result<Self, SecretError> {
        match std::fs::read_to_string(path) {
            Ok(s) => Self::from_hex(&s),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                let key = Self::random();
                key.write_new(path)?;
                Ok(key)
            }
            Err(e) => Err(e.into()),
        }
    }

    /// Writes the key to a new file at `path`, readable by its owner only; refuses an existing file.
    pub fn write_new(&self, path: &Path) -> Result<(), SecretError> {
        let mut options = std::fs::OpenOptions::new();
        options.write(true).create_new(true);
        #[cfg(unix)]
        std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
        let mut file = options.open(path)?;
        writeln!(file, "{}", hex::encode(self.0))?;
        Ok(())
    }

    fn aead(&self) -> LessSafeKey {
        LessSafeKey::new(UnboundKey::new(&CHACHA20_POLY1305, &self.0).expect("a 32-byte key"))
    }

    /// `plain` sealed for the setting `name`: base64 of the nonce and the ciphertext.
    pub fn seal(&self, name: &str, plain: &[u8]) -> String {
        let mut nonce = [0u8; NONCE_LEN];
        SystemRandom::new().fill(&mut nonce).expect("the system's random source");
        let mut data = plain.to_vec();
        self.aead()
            .seal_in_place_append_tag(Nonce::assume_unique_for_key(nonce), Aad::from(name.as_bytes()), &mut data)
            .expect("sealing cannot fail for in-memory data");
        let mut out = nonce.to_vec();
        out.extend_from_slice(&data);
        ENGINE.encode(out)
    }

    /// What `seal` sealed for `name`.
    pub fn open(&self, name: &str, sealed: &str) -> Result<Vec<u8>, SecretError> {
        let mut data = ENGINE.decode(sealed).map_err(|_| SecretError::Unreadable)?;
        if data.len() < NONCE_LEN {
            return Err(SecretError::Unreadable);
        }
        let nonce: [u8; NONCE_LEN] = data[..NONCE_LEN].try_into().map_err(|_| SecretError::Unreadable)?;
        let body = &mut data[NONCE_LEN..];
        let plain = self
            .aead()
            .open_in_place(Nonce::assume_unique_for_key(nonce), Aad::from(name.as_bytes()), body)
            .map_err(|_| SecretError::Unreadable)?;
        Ok(plain.to_vec())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_sealed_value_opens_only_with_its_key_and_name() {
        let key = SecretKey::random();
        let sealed = key.seal("google_sheets", b"private key");
        assert!(!sealed.contains("private"), "{sealed}");
        assert_eq!(key.open("google_sheets", &sealed).unwrap(), b"private key");
        assert_ne!(key.seal("google_sheets", b"private key"), sealed, "a fresh nonce each time");
        assert!(matches!(key.open("other", &sealed), Err(SecretError::Unreadable)));
        assert!(matches!(SecretKey::random().open("google_sheets", &sealed), Err(SecretError::Unreadable)));
        let mut tampered = ENGINE.decode(&sealed).unwrap();
        let last = tampered.len() - 1;
        tampered[last] ^= 1;
        assert!(matches!(key.open("google_sheets", &ENGINE.encode(tampered)), Err(SecretError::Unreadable)));
        assert!(matches!(key.open("google_sheets", "not base64!"), Err(SecretError::Unreadable)));
        assert!(matches!(key.open("google_sheets", "AAAA"), Err(SecretError::Unreadable)));
    }

    #[test]
    fn the_key_file_is_written_once_and_read_back() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("secret.key");
        let a = SecretKey::load_or_create(&path).unwrap();
        let b = SecretKey::load_or_create(&path).unwrap();
        assert_eq!(a.0, b.0);
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            assert_eq!(std::fs::metadata(&path).unwrap().permissions().mode() & 0o777, 0o600);
        }
        assert!(matches!(SecretKey::from_hex("abc"), Err(SecretError::BadKey)));
        assert!(SecretKey::from_hex(&"ab".repeat(32)).is_ok());
        assert_eq!(format!("{a:?}"), "SecretKey(***)");
    }
}
