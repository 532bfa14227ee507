//! How the atoms of a model are printed: clasp's `--out-atomf` (text around each atom's name,
//! as `%0.` makes facts) and `--out-ifs` (what separates the atoms: a space, or `\n` for one
//! atom a line). The text and competition formats take them; JSON prints names alone.

/// An atom's name with text before and after it, and the separator between atoms.
/// Invariant: `pre` and `post` hold no new line (clasp refuses them).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AtomFormat {
    pub pre: String,
    pub post: String,
    pub ifs: u8,
}

impl AtomFormat {
    /// The text format's: names alone, separated by spaces.
    pub fn text() -> Self {
        AtomFormat { pre: String::new(), post: String::new(), ifs: b' ' }
    }

    /// The competition format's: each name followed by a full stop.
    pub fn competition() -> Self {
        AtomFormat { post: ".".into(), ..Self::text() }
    }

    /// `--out-atomf`: clasp's format string `<Pre>?%0<Post>?` (`%s` for `%0` too, `%%` a percent
    /// sign) in place of `self`'s; `self` as it is where the string formats only clasp's
    /// numbered variables (`-%d`, which no answer set prints). Errors are clasp's.
    pub fn with_atomf(mut self, f: &str) -> Result<Self, String> {
        let mut spec = None;
        let (mut pre, mut post) = (String::new(), String::new());
        let mut chars = f.chars();
        while let Some(c) = chars.next() {
            if c == '\n' {
                return Err("cat_atom: Invalid format string - new line not allowed".into());
            }
            let into = if spec.is_none() { &mut pre } else { &mut post };
            if c != '%' {
                into.push(c);
                continue;
            }
            match chars.next() {
                None => return Err("cat_atom: Invalid format string - missing format specifier".into()),
                Some('%') => into.push('%'),
                Some(_) if spec.is_some() => {
                    return Err("cat_atom: Invalid format string - too many arguments".into());
                }
                Some(s @ ('s' | 'd' | '0')) => spec = Some(s),
                Some(_) => return Err("cat_atom: Invalid format string - invalid format specifier".into()),
            }
        }
        match spec {
            Some('s' | '0') => {
                self.pre = pre;
                self.post = post;
                Ok(self)
            }
            // A format of variables only: it must start with '-', and names print as before.
            _ if f.starts_with('-') => Ok(self),
            _ => Err("cat_atom: Invalid format string - must start with '-'".into()),
        }
    }

    /// `--out-ifs`: one character, or `\t`, `\n`, `\v` or `\\` (clasp's forms).
    pub fn parse_ifs(s: &str) -> Result<u8, String> {
        match s.as_bytes() {
            [c] => Ok(*c),
            [b'\\', b't'] => Ok(b'\t'),
            [b'\\', b'n'] => Ok(b'\n'),
            [b'\\', b'v'] => Ok(0x0b),
            [b'\\', b'\\'] => Ok(b'\\'),
            _ => Err(format!("'{s}': expected one character, or \\t, \\n, \\v or \\\\")),
        }
    }

    /// Writes `names` (valid UTF-8: `ShownTable`'s) as a model's line: each in its format, the
    /// separator between them, a new line after.
    pub fn write_line<'a>(&self, names: impl Iterator<Item = &'a [u8]>, s: &mut Vec<u8>) {
        debug_assert!(!self.pre.contains('\n') && !self.post.contains('\n'));
        for (i, a) in names.enumerate() {
            if i > 0 {
                s.push(self.ifs);
            }
            debug_assert!(std::str::from_utf8(a).is_ok(), "a name that is not UTF-8");
            s.extend_from_slice(self.pre.as_bytes());
            s.extend_from_slice(a);
            s.extend_from_slice(self.post.as_bytes());
        }
        s.push(b'\n');
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line(f: &AtomFormat, names: &[&str]) -> String {
        let mut s = Vec::new();
        f.write_line(names.iter().map(|n| n.as_bytes()), &mut s);
        String::from_utf8(s).unwrap()
    }

    /// Formats and separators as clingo 5.8.3 prints them (`--out-atomf=%0.`, `a%%b%0`, `p(%0`;
    /// `--out-ifs=\n`, `,`), and clasp's errors.
    #[test]
    fn formats_print_as_clasps() {
        let facts = AtomFormat::text().with_atomf("%0.").unwrap();
        assert_eq!(line(&facts, &["q(2,2)", "q(1,5)"]), "q(2,2). q(1,5).\n");
        let lines = AtomFormat { ifs: AtomFormat::parse_ifs("\\n").unwrap(), ..facts };
        assert_eq!(line(&lines, &["a", "b"]), "a.\nb.\n");
        assert_eq!(line(&lines, &[]), "\n");
        let pct = AtomFormat::text().with_atomf("a%%b%s").unwrap();
        assert_eq!(line(&pct, &["x"]), "a%bx\n");
        let open = AtomFormat { ifs: b',', ..AtomFormat::text().with_atomf("p(%0").unwrap() };
        assert_eq!(line(&open, &["x", "y"]), "p(x,p(y\n");
        assert_eq!(AtomFormat::text().with_atomf("-%d"), Ok(AtomFormat::text()));
        assert_eq!(line(&AtomFormat::competition(), &["a", "b"]), "a. b.\n");
        for (bad, why) in [
            ("%d", "must start with '-'"),
            ("x", "must start with '-'"),
            ("%0%0", "too many arguments"),
            ("%x", "invalid format specifier"),
            ("a%", "missing format specifier"),
            ("a\nb%0", "new line not allowed"),
        ] {
            assert!(AtomFormat::text().with_atomf(bad).unwrap_err().contains(why), "{bad}");
        }
        assert_eq!(AtomFormat::parse_ifs("\\t"), Ok(b'\t'));
        assert_eq!(AtomFormat::parse_ifs("\\\\"), Ok(b'\\'));
        assert!(AtomFormat::parse_ifs("ab").is_err() && AtomFormat::parse_ifs("\\x").is_err());
        assert!(AtomFormat::parse_ifs("").is_err());
    }
}
