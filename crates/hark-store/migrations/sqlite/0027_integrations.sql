-- Integrations an instance administrator sets up (the Google Sheets service account): what may be
-- shown (`public`, JSON) beside the secret, which is stored sealed by the server's secret key
-- (`sealed`: nonce and ciphertext, base64) and never read back by the API.
CREATE TABLE integration_settings (
    name TEXT PRIMARY KEY,
    public TEXT NOT NULL DEFAULT '{}',
    sealed TEXT,
    check_state TEXT NOT NULL DEFAULT 'unchecked',
    check_message TEXT,
    checked_at INTEGER,
    updated_at INTEGER NOT NULL,
    CONSTRAINT integration_settings_check_state_check CHECK (check_state IN ('unchecked', 'ok', 'failed'))
);
