//! Every CSV the API writes goes through [`CsvFile`]: the `csv` crate's quoting, and one rule
//! against spreadsheet formula injection for every cell of every export.

use std::borrow::Cow;

use axum::http::header;
use axum::response::{IntoResponse, Response};

use crate::error::{ApiError, ApiResult};

/// A CSV file being written in memory, header first.
pub struct CsvFile {
    w: csv::Writer<Vec<u8>>,
}

fn internal(e: csv::Error) -> ApiError {
    ApiError::Internal(e.to_string())
}

impl CsvFile {
    pub fn new<I, S>(header: I) -> ApiResult<Self>
    where
        I: IntoIterator<Item = S>,
        S: AsRef<str>,
    {
        let mut f = Self { w: csv::Writer::from_writer(Vec::new()) };
        f.row(header)?;
        Ok(f)
    }

    /// One record; each cell is [neutralised](neutralise).
    pub fn row<I, S>(&mut self, cells: I) -> ApiResult<()>
    where
        I: IntoIterator<Item = S>,
        S: AsRef<str>,
    {
        self.w.write_record(cells.into_iter().map(|c| neutralise(c.as_ref()).into_owned())).map_err(internal)
    }

    /// The file as a download named `filename`.
    pub fn into_response(self, filename: &str) -> ApiResult<Response> {
        let mut body = BOM.as_bytes().to_vec();
        body.extend(self.w.into_inner().map_err(|e| internal(e.into_error().into()))?);
        Ok((
            [
                (header::CONTENT_TYPE, "text/csv; charset=utf-8".to_string()),
                (header::CONTENT_DISPOSITION, disposition(filename)),
            ],
            body,
        )
            .into_response())
    }
}

/// Every CSV starts with a byte order mark, so that Excel reads it as UTF-8.
pub const BOM: &str = "\u{feff}";

/// Bytes a streamed CSV gathers before sending them on.
const STREAM_CHUNK: usize = 64 * 1024;

/// A CSV download written while it is sent: `fill` writes records into a [`CsvStream`], which
/// passes them on in chunks, so a long export neither waits for its last row nor holds the
/// whole file. An error after the first bytes can only end the file early: it is logged.
pub fn streamed<F, Fut>(filename: &str, header: &[&str], fill: F) -> Response
where
    F: FnOnce(CsvStream) -> Fut + Send + 'static,
    Fut: std::future::Future<Output = ApiResult<()>> + Send + 'static,
{
    let (tx, rx) = tokio::sync::mpsc::channel::<Vec<u8>>(4);
    let mut out = CsvStream { w: csv::Writer::from_writer(BOM.as_bytes().to_vec()), tx };
    let head = out.row(header.iter());
    tokio::spawn(async move {
        let result = match head {
            Ok(()) => fill(out).await,
            Err(e) => Err(e),
        };
        if let Err(e) = result {
            tracing::error!(error = %e, "a streamed CSV export ended early");
        }
    });
    // A stream that may be polled again after its end (the compression layer does): it keeps
    // answering that it has ended.
    let mut rx = rx;
    let body = futures_util::stream::poll_fn(move |cx| rx.poll_recv(cx).map(|c| c.map(Ok::<_, std::convert::Infallible>)));
    (
        [
            (header::CONTENT_TYPE, "text/csv; charset=utf-8".to_string()),
            (header::CONTENT_DISPOSITION, disposition(filename)),
        ],
        axum::body::Body::from_stream(body),
    )
        .into_response()
}

/// `attachment` with the name in plain ASCII (a header value is ASCII; quotes, backslashes and
/// control characters dropped, other characters as `_`).
fn disposition(filename: &str) -> String {
    disposition_as("attachment", filename)
}

/// A Content-Disposition of `how` (`attachment` or `inline`) for `filename`, quotes and control
/// characters left out and non-ASCII letters replaced.
pub fn disposition_as(how: &str, filename: &str) -> String {
    let name: String = filename
        .chars()
        .filter(|c| !matches!(c, '"' | '\\') && !c.is_control())
        .map(|c| if c.is_ascii() { c } else { '_' })
        .collect();
    format!("{how}; filename=\"{name}\"")
}

/// The writing end of [`streamed`].
pub struct CsvStream {
    w: csv::Writer<Vec<u8>>,
    tx: tokio::sync::mpsc::Sender<Vec<u8>>,
}

impl CsvStream {
    /// One record; each cell is [neutralised](neutralise).
    pub fn row<I, S>(&mut self, cells: I) -> ApiResult<()>
    where
        I: IntoIterator<Item = S>,
        S: AsRef<str>,
    {
        self.w.write_record(cells.into_iter().map(|c| neutralise(c.as_ref()).into_owned())).map_err(internal)
    }

    /// One record of typed cells, each written into a reused buffer and [neutralised](neutralise)
    /// without a string of its own (the posts export writes a million of them).
    pub fn cells(&mut self, cells: &[crate::routes::posts::Cell], scratch: &mut String) -> ApiResult<()> {
        for c in cells {
            scratch.clear();
            let text: &str = match c {
                crate::routes::posts::Cell::Text(s) => s,
                other => {
                    other.write_csv(scratch);
                    scratch
                }
            };
            self.w.write_field(neutralise(text).as_bytes()).map_err(internal)?;
        }
        self.w.write_record(None::<&[u8]>).map_err(internal)
    }

    /// Sends what was written once it is a chunk's worth (or `force`); false when the client left.
    pub async fn send(&mut self, force: bool) -> ApiResult<bool> {
        self.w.flush().map_err(|e| ApiError::Internal(e.to_string()))?;
        if self.w.get_ref().is_empty() || (!force && self.w.get_ref().len() < STREAM_CHUNK) {
            return Ok(true);
        }
        let full = std::mem::replace(&mut self.w, csv::Writer::from_writer(Vec::new()));
        let chunk = full.into_inner().map_err(|e| internal(e.into_error().into()))?;
        Ok(self.tx.send(chunk).await.is_ok())
    }
}

/// A cell a spreadsheet would run as a formula (it starts with `=`, `+`, `-`, `@`, a tab or a
/// carriage return) gets an apostrophe in front, so it shows as the text it is. Plain numbers
/// (`-3`, `+1.5`) are left alone: they are values, not formulas.
pub fn neutralise(cell: &str) -> Cow<'_, str> {
    let risky = cell.starts_with(['=', '+', '-', '@', '\t', '\r']);
    if risky && cell.parse::<f64>().is_err() {
        Cow::Owned(format!("'{cell}"))
    } else {
        Cow::Borrowed(cell)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formulas_become_text_and_numbers_stay_numbers() {
        for (cell, want) in [
            ("=SUM(A1)", "'=SUM(A1)"),
            ("+1 coffee", "'+1 coffee"),
            ("-2+3", "'-2+3"),
            ("@cmd", "'@cmd"),
            ("\t=1", "'\t=1"),
            ("-3", "-3"),
            ("+1.5", "+1.5"),
            ("plain = text", "plain = text"),
            ("", ""),
        ] {
            assert_eq!(neutralise(cell), want, "{cell:?}");
        }
    }

    #[test]
    fn cells_are_quoted_by_the_csv_rules() {
        let mut f = CsvFile::new(["a", "b"]).unwrap();
        f.row(["say \"hi\", then", "=1+1"]).unwrap();
        let body = String::from_utf8(f.w.into_inner().unwrap()).unwrap();
        assert_eq!(body, "a,b\n\"say \"\"hi\"\", then\",'=1+1\n");
    }
}
