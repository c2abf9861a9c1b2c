//! Outgoing e-mail through the SMTP server the administrator configured (`--smtp-url`): the
//! share link by e-mail and team invitations. Without one, the features that send say so.

use lettre::message::Mailbox;
use lettre::{AsyncSmtpTransport, AsyncTransport, Message, Tokio1Executor};

use crate::error::{ApiError, ApiResult};
use hark_core::Code;

/// Where mail goes: `smtp://host:port` (plain), `smtp://host:port?tls=required` (STARTTLS) or
/// `smtps://host:port`, with `user:password@` when the server wants a login; and the sender.
#[derive(Clone, Debug)]
pub struct MailConfig {
    pub smtp_url: String,
    pub from: String,
}

pub struct Mailer {
    transport: AsyncSmtpTransport<Tokio1Executor>,
    from: Mailbox,
}

impl Mailer {
    pub fn new(config: &MailConfig) -> Result<Self, String> {
        let transport = AsyncSmtpTransport::<Tokio1Executor>::from_url(&config.smtp_url)
            .map_err(|e| format!("SMTP URL: {e}"))?
            .timeout(Some(std::time::Duration::from_secs(20)))
            .build();
        let from = config.from.parse().map_err(|e| format!("sender address '{}': {e}", config.from))?;
        Ok(Mailer { transport, from })
    }

    /// Sends a plain-text message to one address.
    pub async fn send(&self, to: &str, subject: &str, body: String) -> ApiResult<()> {
        let to: Mailbox = to.parse().map_err(|_| ApiError::new(Code::InvalidEmail, format!("'{to}' is not an e-mail address.")))?;
        // A subject holds one line.
        let subject: String = subject.chars().map(|c| if c.is_control() { ' ' } else { c }).collect();
        let message = Message::builder()
            .from(self.from.clone())
            .to(to)
            .subject(subject)
            .body(body)
            .map_err(|e| ApiError::Internal(format!("building a message: {e}")))?;
        self.transport.send(message).await.map_err(|e| {
            tracing::warn!(error = %e, "sending mail failed");
            ApiError::new(Code::MailFailed, "The mail server did not take the message; try again later.")
        })?;
        Ok(())
    }
}

/// The error of a feature that sends mail on an instance without an SMTP server.
pub fn not_configured() -> ApiError {
    ApiError::new(Code::MailNotConfigured, "E-mail is not set up on this Hark server: its administrator sets an SMTP server (--smtp-url).")
}
