//! A model's shown strings in one buffer that the printer reuses from model to model, so that
//! printing a model allocates nothing.

/// Strings in one buffer: string `i` is `bytes[ends[i - 1]..ends[i]]` (from 0 for the first).
/// Invariant: `ends` is non-decreasing and its last entry is `bytes.len()`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(super) struct Names {
    bytes: Vec<u8>,
    ends: Vec<usize>,
}

impl Names {
    pub fn clear(&mut self) {
        self.bytes.clear();
        self.ends.clear();
    }

    pub fn push(&mut self, s: &[u8]) {
        self.bytes.extend_from_slice(s);
        self.ends.push(self.bytes.len());
        debug_assert_eq!(self.ends.last(), Some(&self.bytes.len()));
    }

    pub fn iter(&self) -> impl Iterator<Item = &[u8]> {
        let starts = std::iter::once(0).chain(self.ends.iter().copied());
        starts.zip(&self.ends).map(|(from, &to)| &self.bytes[from..to])
    }
}

#[cfg(test)]
mod tests {
    use super::Names;

    #[test]
    fn strings_come_back_in_order_also_empty_ones_and_after_a_clear() {
        let mut n = Names::default();
        for s in ["a(1)", "", "b"] {
            n.push(s.as_bytes());
        }
        assert_eq!(n.iter().collect::<Vec<_>>(), [&b"a(1)"[..], b"", b"b"]);
        n.clear();
        assert_eq!(n.iter().count(), 0);
        n.push(b"c");
        assert_eq!(n.iter().collect::<Vec<_>>(), [&b"c"[..]]);
    }
}
