// A real SMTP server for browser tests that need mail: it listens on 127.0.0.1 on a free port,
// takes every message without a login or TLS and keeps it, so a test can read what Hark sent.
//
//   const smtp = await startSmtp();
//   const server = await startServer({ env: smtp.env });
//   const [message] = await smtp.waitFor((m) => m.to.includes('ann@example.org'));
//   textBody(message.raw)  // the decoded body text
import { SMTPServer } from 'smtp-server';

/** Starts the server; answers { port, url, env, messages, waitFor, stop }. */
export async function startSmtp() {
  /** Messages in the order they came: { from, to: [addresses], raw }. */
  const messages = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, session, callback) {
      const chunks = [];
      stream.on('data', (c) => chunks.push(c));
      stream.on('error', callback);
      stream.on('end', () => {
        messages.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : null,
          to: session.envelope.rcptTo.map((r) => r.address.toLowerCase()),
          raw: Buffer.concat(chunks).toString('utf8'),
        });
        callback();
      });
    },
  });
  await new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.server.address();
  const url = `smtp://127.0.0.1:${port}`;

  /** Waits until `count` messages pass `match`; answers them. */
  async function waitFor(match, { count = 1, timeoutMs = 20_000 } = {}) {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = messages.filter(match);
      if (found.length >= count) return found;
      if (Date.now() > deadline) {
        throw new Error(`timed out waiting for ${count} message(s); got ${messages.length}: ${messages.map((m) => m.to.join(',')).join(' | ')}`);
      }
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  const stop = () => new Promise((resolve) => server.close(() => resolve()));
  return { port, url, env: { HARK_SMTP_URL: url, HARK_MAIL_FROM: 'Hark <hark@example.org>' }, messages, waitFor, stop };
}

/** A raw message's header value (the first one named so), unfolded. */
export function header(raw, name) {
  const head = raw.split(/\r?\n\r?\n/)[0].replace(/\r?\n[ \t]+/g, ' ');
  const line = head.split(/\r?\n/).find((l) => l.toLowerCase().startsWith(`${name.toLowerCase()}:`));
  return line ? line.slice(name.length + 1).trim() : null;
}

/** A single-part text message's body, decoded from quoted-printable or base64 as its header says. */
export function textBody(raw) {
  const at = raw.search(/\r?\n\r?\n/);
  const body = raw.slice(raw.indexOf('\n', at + 1) + 1).replace(/^\r?\n/, '');
  const encoding = (header(raw, 'Content-Transfer-Encoding') ?? '7bit').toLowerCase();
  if (encoding === 'quoted-printable') {
    // Soft line breaks join lines; =XX is a byte.
    const joined = body.replace(/=\r?\n/g, '');
    const bytes = [];
    for (let i = 0; i < joined.length; i++) {
      const hex = joined.slice(i + 1, i + 3);
      if (joined[i] === '=' && /^[0-9A-Fa-f]{2}$/.test(hex)) {
        bytes.push(parseInt(hex, 16));
        i += 2;
      } else {
        bytes.push(...Buffer.from(joined[i], 'utf8'));
      }
    }
    return Buffer.from(bytes).toString('utf8');
  }
  if (encoding === 'base64') return Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8');
  return body;
}

/** The http(s) links in a text. */
export function links(text) {
  return [...text.matchAll(/https?:\/\/[^\s<>"]+/g)].map((m) => m[0]);
}
