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
        let body = self.w.into_inner().map_err(|e| internal(e.into_error().into()))?;
        let name: String = filename.chars().filter(|c| !matches!(c, '"' | '\\' | '\r' | '\n')).collect();
        Ok((
            [
                (header::CONTENT_TYPE, "text/csv; charset=utf-8".to_string()),
                (header::CONTENT_DISPOSITION, format!("attachment; filename=\"{name}\"")),
            ],
            body,
        )
            .into_response())
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
