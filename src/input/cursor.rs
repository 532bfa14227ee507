//! A cursor over the input bytes: the tokens both readers are made of, and errors that name the line.
//!
//! Both formats are line oriented: a statement's tokens are separated by blanks and never run
//! into the next line, so a count that promises more items than its line holds is caught at the
//! line's end instead of silently eating the next statement. Numbers are lexed with `nom`.

use crate::program::{Atom, Lit, MAX_ATOM};
use nom::Parser;
use nom::character::complete::{i64 as nom_i64, space0};
use nom::sequence::preceded;
use std::fmt;

/// A malformed input: where (1-based line and column) and what was expected.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReadError {
    pub line: usize,
    pub column: usize,
    pub message: String,
}

impl fmt::Display for ReadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}, column {}: {}", self.line, self.column, self.message)
    }
}

impl std::error::Error for ReadError {}

pub struct Cursor<'a> {
    buf: &'a [u8],
    pos: usize,
}

impl<'a> Cursor<'a> {
    pub fn new(buf: &'a [u8]) -> Self {
        Cursor { buf, pos: 0 }
    }

    /// An error at the current position.
    pub fn error(&self, message: impl Into<String>) -> ReadError {
        self.error_at(self.pos, message)
    }

    pub fn error_at(&self, pos: usize, message: impl Into<String>) -> ReadError {
        let pos = pos.min(self.buf.len());
        let before = &self.buf[..pos];
        let line = before.iter().filter(|&&b| b == b'\n').count() + 1;
        let start = before.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
        ReadError { line, column: pos - start + 1, message: message.into() }
    }

    fn skip_blanks(&mut self) {
        while let Some(b' ' | b'\t' | b'\r') = self.buf.get(self.pos) {
            self.pos += 1;
        }
    }

    /// What the next token looks like, for error messages.
    fn found(&self) -> String {
        let rest = &self.buf[self.pos..];
        match rest.first() {
            None => "end of input".into(),
            Some(b'\n') => "end of line".into(),
            Some(_) => {
                let end = rest.iter().position(|b| b.is_ascii_whitespace()).unwrap_or(rest.len());
                let tok = String::from_utf8_lossy(&rest[..end.min(24)]);
                format!("'{tok}'")
            }
        }
    }

    /// The next integer on this line.
    pub fn int(&mut self, what: &str) -> Result<i64, ReadError> {
        self.skip_blanks();
        let start = self.pos;
        let res: nom::IResult<&[u8], i64> = preceded(space0, nom_i64).parse(&self.buf[start..]);
        match res {
            Ok((rest, v)) if rest.first().is_none_or(|b| b.is_ascii_whitespace()) => {
                self.pos = self.buf.len() - rest.len();
                Ok(v)
            }
            _ => {
                let digits = self.buf[start..].iter().take_while(|b| b.is_ascii_digit() || **b == b'-');
                if digits.count() > 18 {
                    Err(self.error(format!("{what} out of range, found {}", self.found())))
                } else {
                    Err(self.error(format!("expected {what}, found {}", self.found())))
                }
            }
        }
    }

    /// The next integer, which must lie in `lo..=hi`.
    pub fn int_in(&mut self, what: &str, lo: i64, hi: i64) -> Result<i64, ReadError> {
        let at = self.peek_pos();
        let v = self.int(what)?;
        if v < lo || v > hi {
            return Err(self.error_at(at, format!("expected {what} ({lo}..{hi}), found {v}")));
        }
        Ok(v)
    }

    /// A count of items that follow on this line (no allocation is ever sized by it).
    pub fn count(&mut self, what: &str) -> Result<usize, ReadError> {
        Ok(self.int_in(what, 0, i64::from(u32::MAX))? as usize)
    }

    pub fn atom(&mut self) -> Result<Atom, ReadError> {
        Ok(self.int_in("an atom", 1, i64::from(MAX_ATOM))? as Atom)
    }

    /// An atom or the 0 that ends a list (smodels).
    pub fn atom_or_zero(&mut self) -> Result<Atom, ReadError> {
        Ok(self.int_in("an atom or 0", 0, i64::from(MAX_ATOM))? as Atom)
    }

    pub fn lit(&mut self) -> Result<Lit, ReadError> {
        let at = self.peek_pos();
        let v = self.int("a literal")?;
        if v == 0 {
            return Err(self.error_at(at, "expected a literal, found 0 (literals are non-zero)"));
        }
        if v.unsigned_abs() > u64::from(MAX_ATOM) {
            return Err(self.error_at(at, format!("literal {v} out of range (atoms are 1..{MAX_ATOM})")));
        }
        Ok(v as Lit)
    }

    /// A 32-bit signed number (priorities, biases, node ids, weights).
    pub fn i32(&mut self, what: &str) -> Result<i32, ReadError> {
        Ok(self.int_in(what, i64::from(i32::MIN), i64::from(i32::MAX))? as i32)
    }

    /// A non-negative 32-bit number.
    pub fn u32(&mut self, what: &str) -> Result<u32, ReadError> {
        Ok(self.int_in(what, 0, i64::from(i32::MAX))? as u32)
    }

    /// The position of the next token (after blanks), for errors about its value.
    pub fn peek_pos(&mut self) -> usize {
        self.skip_blanks();
        self.pos
    }

    /// Ends a statement: only blanks may remain before the newline (or the end of input).
    pub fn end_line(&mut self) -> Result<(), ReadError> {
        self.skip_blanks();
        match self.buf.get(self.pos) {
            None => Ok(()),
            Some(b'\n') => {
                self.pos += 1;
                Ok(())
            }
            Some(_) => Err(self.error(format!("expected end of line, found {}", self.found()))),
        }
    }

    /// Skips the rest of the line and its newline.
    pub fn skip_line(&mut self) {
        match self.buf[self.pos..].iter().position(|&b| b == b'\n') {
            Some(i) => self.pos += i + 1,
            None => self.pos = self.buf.len(),
        }
    }

    /// The rest of the line (without the newline), consuming the newline.
    pub fn rest_of_line(&mut self) -> &'a [u8] {
        let rest = &self.buf[self.pos..];
        let end = rest.iter().position(|&b| b == b'\n').unwrap_or(rest.len());
        self.pos += end;
        if self.pos < self.buf.len() {
            self.pos += 1;
        }
        let line = &rest[..end];
        line.strip_suffix(b"\r").unwrap_or(line)
    }

    /// Exactly `n` raw bytes after one separating blank (aspif strings), which must not run past
    /// the end of the line.
    pub fn string(&mut self, n: usize) -> Result<&'a [u8], ReadError> {
        if self.buf.get(self.pos) != Some(&b' ') {
            return Err(self.error(format!("expected a blank before the string, found {}", self.found())));
        }
        self.pos += 1;
        let rest = &self.buf[self.pos..];
        let line_len = rest.iter().position(|&b| b == b'\n').unwrap_or(rest.len());
        if n > line_len {
            return Err(self.error(format!("expected a string of {n} bytes, the line has only {line_len}")));
        }
        self.pos += n;
        Ok(&rest[..n])
    }

    /// Consumes `word` if the input continues with it.
    pub fn keyword(&mut self, word: &[u8]) -> bool {
        if self.buf[self.pos..].starts_with(word) {
            self.pos += word.len();
            true
        } else {
            false
        }
    }

    /// Skips blank lines; true at the end of the input.
    pub fn at_end(&mut self) -> bool {
        loop {
            self.skip_blanks();
            match self.buf.get(self.pos) {
                None => return true,
                Some(b'\n') => self.pos += 1,
                Some(_) => return false,
            }
        }
    }

    pub fn position(&self) -> usize {
        self.pos
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ints_and_errors_name_line_and_column() {
        let mut c = Cursor::new(b"1 -2  3\n4 x\n");
        assert_eq!(c.int("n").unwrap(), 1);
        assert_eq!(c.lit().unwrap(), -2);
        assert_eq!(c.int("n").unwrap(), 3);
        assert!(c.int("n").is_err());
        c.end_line().unwrap();
        assert_eq!(c.int("n").unwrap(), 4);
        let e = c.int("an atom").unwrap_err();
        assert_eq!((e.line, e.column), (2, 3));
        assert_eq!(e.message, "expected an atom, found 'x'");
    }

    #[test]
    fn huge_numbers_are_range_errors() {
        let mut c = Cursor::new(b"99999999999999999999999 2147483648");
        assert!(c.int("n").unwrap_err().message.contains("out of range"));
        let mut c = Cursor::new(b"2147483648");
        assert!(c.atom().is_err());
    }

    #[test]
    fn strings_stay_on_their_line() {
        let mut c = Cursor::new(b" ab c\n");
        assert_eq!(c.string(4).unwrap(), b"ab c");
        let mut c = Cursor::new(b" ab\nc");
        assert!(c.string(4).is_err());
    }
}
