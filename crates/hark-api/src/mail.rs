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

/// A message of the alerts and reports: plain text, a file attached, the list headers that let a
/// mail client unsubscribe in one click (RFC 2369, RFC 8058), and a Message-ID made from the
/// delivery, so that a message sent twice (a sender stopped before recording it) is one message to
/// the receiver.
pub struct Outgoing<'a> {
    pub to: &'a str,
    pub subject: &'a str,
    pub body: String,
    pub attachment: Option<(String, &'static str, Vec<u8>)>,
    pub unsubscribe_url: Option<String>,
    pub message_id: Option<String>,
}

/// Why a message was not sent, and whether trying again may help.
#[derive(Debug, Clone)]
pub struct SendFailure {
    pub message: String,
    pub permanent: bool,
}

impl Mailer {
    pub async fn send_outgoing(&self, m: Outgoing<'_>) -> Result<(), SendFailure> {
        use lettre::message::header::{ContentType, HeaderName, HeaderValue};
        use lettre::message::{Attachment, MultiPart, SinglePart};
        let permanent = |message: String| SendFailure { message, permanent: true };
        let to: Mailbox = m.to.parse().map_err(|_| permanent(format!("'{}' is not an e-mail address.", m.to)))?;
        let subject: String = m.subject.chars().map(|c| if c.is_control() { ' ' } else { c }).collect();
        let builder = Message::builder().from(self.from.clone()).to(to).subject(subject).message_id(m.message_id);
        let text = SinglePart::builder().header(ContentType::TEXT_PLAIN).body(m.body);
        let mut message = match m.attachment {
            Some((name, content_type, bytes)) => {
                let ct = ContentType::parse(content_type).map_err(|e| permanent(format!("content type: {e}")))?;
                builder.multipart(MultiPart::mixed().singlepart(text).singlepart(Attachment::new(name).body(bytes, ct)))
            }
            None => builder.singlepart(text),
        }
        .map_err(|e| permanent(format!("building the message: {e}")))?;
        if let Some(url) = m.unsubscribe_url {
            let h = message.headers_mut();
            h.insert_raw(HeaderValue::new(HeaderName::new_from_ascii_str("List-Unsubscribe"), format!("<{url}>")));
            h.insert_raw(HeaderValue::new(HeaderName::new_from_ascii_str("List-Unsubscribe-Post"), "List-Unsubscribe=One-Click".into()));
        }
        self.transport.send(message).await.map(|_| ()).map_err(|e| SendFailure {
            permanent: e.is_permanent(),
            message: format!("the mail server refused: {e}"),
        })
    }
}

/// The error of a feature that sends mail on an instance without an SMTP server.
pub fn not_configured() -> ApiError {
    ApiError::new(Code::MailNotConfigured, "E-mail is not set up on this Hark server: its administrator sets an SMTP server (--smtp-url).")
}
